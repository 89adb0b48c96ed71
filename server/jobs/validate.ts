import { checkDrawingName } from '../cloud/names.ts'
import { AppError } from '../errors.ts'
import { type ExtractUnits, parseExtractUnits } from './extract-units.ts'

export interface ExtractRequest {
  fileName: string
  fileStorageId: string
  fileFolderId: string
  projectId: string
  /** The bill's units, when the person chose them (absent: by the drawing). */
  units?: ExtractUnits
}

const FIELDS = ['fileName', 'fileStorageId', 'fileFolderId', 'projectId'] as const
const MAX_FIELD_LENGTH = 2048
const SHAPE = '{"fileName", "fileStorageId", "fileFolderId", "projectId"}'

/**
 * Checks the shape of POST /api/boq/extract's body (what can be checked without the cloud):
 * JSON, each field a non-empty string, a drawing's name (server/cloud/names.ts: a visible name,
 * not a path, ending in exactly `.dwg`), and the optional `units` (see extract-units.ts).
 */
export function parseExtractRequest(text: string): ExtractRequest {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new AppError(400, `The request body must be JSON: ${SHAPE}.`)
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError(400, `The request body must be a JSON object: ${SHAPE}.`)
  }
  const record = body as Record<string, unknown>
  const missing = FIELDS.filter(
    (f) => typeof record[f] !== 'string' || !(record[f] as string).trim(),
  )
  if (missing.length > 0) {
    const list = missing.join(', ')
    throw new AppError(
      400,
      missing.length === 1
        ? `${list} is missing or empty.`
        : `These fields are missing or empty: ${list}.`,
    )
  }
  const request = Object.fromEntries(
    FIELDS.map((f) => [f, record[f] as string]),
  ) as unknown as ExtractRequest
  for (const field of FIELDS) {
    if (request[field].length > MAX_FIELD_LENGTH) {
      throw new AppError(400, `${field} is too long (at most ${MAX_FIELD_LENGTH} characters).`)
    }
  }
  // The one rule for drawing names (also upload's): the BOQ is written back under this name, and
  // it reaches download headers, so invisible and direction-changing characters are refused.
  // Its reasons show the name with such characters escaped.
  checkDrawingName(request.fileName)
  const units = parseExtractUnits(record.units)
  return units ? { ...request, units } : request
}
