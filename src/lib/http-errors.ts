// Reads ky's HTTPError by shape rather than through ky's type guards, so that modules
// loaded before the HTTP client (Query's retry rule) do not pull a piece of ky with them.

type HttpErrorLike = Error & { response: Response; data?: unknown }

function isHttpError(error: unknown): error is HttpErrorLike {
  return (
    error instanceof Error &&
    error.name === 'HTTPError' &&
    (error as Partial<HttpErrorLike>).response instanceof Response
  )
}

/** The HTTP status of a failed call, or undefined when no answer came. */
export function httpStatus(error: unknown): number | undefined {
  return isHttpError(error) ? error.response.status : undefined
}

/** The server's plain-text reason for a failed call, or the error's own message. */
export function errorText(error: unknown): string {
  if (isHttpError(error)) {
    const data = error.data
    if (typeof data === 'string' && data.trim() !== '') return data
    if (data !== undefined && data !== null) return JSON.stringify(data)
    return `${error.response.status} ${error.response.statusText}`.trim()
  }
  return error instanceof Error ? error.message : String(error)
}

/**
 * A failed answer to a call made with plain fetch (before the app has loaded ky), shaped like
 * ky's HTTPError so that httpStatus and errorText read both alike.
 */
export class PlainHttpError extends Error {
  override name = 'HTTPError'
  readonly response: Response
  readonly data: string

  constructor(response: Response, data: string, method = 'GET') {
    super(
      `Request failed with status code ${response.status} ${response.statusText}: ${method} ${response.url}`,
    )
    this.response = response
    this.data = data
  }
}
