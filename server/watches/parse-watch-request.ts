import type { ExtractUnits } from '#contract/units.ts'
import { WatchRequestSchema } from '#contract/watches.ts'
import { checkedBody, fieldOf } from '../http/body.ts'
import { unitsProblem, withChosenUnits } from '../jobs/extract-units.ts'

const SHAPE = '{"projectId", "fileFolderId", "units"?}'

/**
 * POST /api/boq/watches' body, checked as an extraction request is (its units by the same
 * words); a refusal is an AppError 400 saying what is wrong.
 */
export function parseWatchRequest(text: string): {
  projectId: string
  fileFolderId: string
  units?: ExtractUnits
} {
  const { units, ...request } = checkedBody(WatchRequestSchema, text, {
    shape: SHAPE,
    problem: (issues) => {
      const units = issues.filter((issue) => fieldOf(issue) === 'units')
      const other = issues.find((issue) => fieldOf(issue) !== 'units')
      return other
        ? `${String(fieldOf(other))} is missing, empty or too long: ${SHAPE}.`
        : unitsProblem(units)
    },
  })
  return withChosenUnits(request, units)
}
