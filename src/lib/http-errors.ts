import { isHTTPError } from 'ky'

/** The HTTP status of a failed call, or undefined when no answer came. */
export function httpStatus(error: unknown): number | undefined {
  return isHTTPError(error) ? error.response.status : undefined
}

/** The server's plain-text reason for a failed call, or the error's own message. */
export function errorText(error: unknown): string {
  if (isHTTPError(error)) {
    const data = error.data
    if (typeof data === 'string' && data.trim() !== '') return data
    if (data !== undefined && data !== null) return JSON.stringify(data)
    return `${error.response.status} ${error.response.statusText}`.trim()
  }
  return error instanceof Error ? error.message : String(error)
}
