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
 * JSON, each field a non-empty string, a `.dwg` file name that is a name and not a path, and the
 * optional `units` (see extract-units.ts).
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
  const name = request.fileName
  if (/[/\\]/.test(name) || name === '.dwg' || hasControlCharacter(name)) {
    throw new AppError(400, `fileName must be the drawing's file name, not a path: "${name}".`)
  }
  // Exactly `.dwg`, as the app's Extract button requires.
  if (!name.endsWith('.dwg')) {
    throw new AppError(400, `Only .dwg drawings can be extracted; "${name}" is not a .dwg file.`)
  }
  const units = parseExtractUnits(record.units)
  return units ? { ...request, units } : request
}

function hasControlCharacter(text: string): boolean {
  for (const ch of text) {
    const code = ch.charCodeAt(0)
    if (code < 0x20 || code === 0x7f) return true
  }
  return false
}
