import * as v from 'valibot'
import type { ExtractUnits } from '../../contract/units.ts'
import { WatchRequestSchema } from '../../contract/watches.ts'
import { AppError } from '../errors.ts'

const SHAPE = '{"projectId", "fileFolderId", "units"?}'

/** POST /api/boq/watches' body, checked; a refusal is an AppError 400 saying what is wrong. */
export function parseWatchRequest(text: string): {
  projectId: string
  fileFolderId: string
  units?: ExtractUnits
} {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new AppError(400, `The request body must be JSON: ${SHAPE}.`)
  }
  const parsed = v.safeParse(WatchRequestSchema, body)
  if (!parsed.success) {
    const field = parsed.issues[0].path?.[0]?.key
    throw new AppError(
      400,
      typeof field === 'string'
        ? `${field} is missing or not valid: ${SHAPE}.`
        : `The request body must be a JSON object: ${SHAPE}.`,
    )
  }
  const { units, ...request } = parsed.output
  return units?.system || units?.drawingUnits ? { ...request, units } : request
}
