import { AppError } from '../errors.ts'

/** The body of POST /api/boq/extract (DESIGN §2). */
export interface ExtractRequest {
  fileName: string
  fileStorageId: string
  fileFolderId: string
  projectId: string
}

const FIELDS = ['fileName', 'fileStorageId', 'fileFolderId', 'projectId'] as const

/** Checks the raw body; throws AppError 400 with every reason a person needs to fix it. */
export function parseExtractRequest(raw: string): ExtractRequest {
  let body: unknown
  try {
    body = JSON.parse(raw)
  } catch {
    throw new AppError(
      400,
      'The request body must be JSON: {fileName, fileStorageId, fileFolderId, projectId}.',
    )
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError(
      400,
      'The request body must be a JSON object: {fileName, fileStorageId, fileFolderId, projectId}.',
    )
  }
  const record = body as Record<string, unknown>
  const missing = FIELDS.filter(
    (f) => typeof record[f] !== 'string' || (record[f] as string).trim() === '',
  )
  if (missing.length > 0) {
    const list = missing.join(', ')
    throw new AppError(
      400,
      `Missing ${missing.length === 1 ? 'field' : 'fields'}: ${list} (each must be a non-empty string).`,
    )
  }
  const request = Object.fromEntries(FIELDS.map((f) => [f, record[f]])) as unknown as ExtractRequest
  if (!request.fileName.endsWith('.dwg')) {
    throw new AppError(
      400,
      `Only .dwg drawings can be extracted; "${request.fileName}" is not one.`,
    )
  }
  return request
}
