import * as v from 'valibot'
import type { ExtractUnits } from '../../contract/units.ts'
import { WatchRequestSchema } from '../../contract/watches.ts'
import { AppError } from '../errors.ts'
import { unitsProblem, withChosenUnits } from '../jobs/extract-units.ts'
import { jsonObjectBody } from '../jobs/validate.ts'

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
  const parsed = v.safeParse(WatchRequestSchema, jsonObjectBody(text, SHAPE))
  if (!parsed.success) {
    const fieldOf = (issue: v.BaseIssue<unknown>) => issue.path?.[0]?.key
    const units = parsed.issues.filter((issue) => fieldOf(issue) === 'units')
    const other = parsed.issues.find((issue) => fieldOf(issue) !== 'units')
    throw new AppError(
      400,
      other
        ? `${String(fieldOf(other))} is missing, empty or too long: ${SHAPE}.`
        : unitsProblem(units),
    )
  }
  const { units, ...request } = parsed.output
  return withChosenUnits(request, units)
}
