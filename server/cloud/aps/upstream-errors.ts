import { AppError, TokenRejectedError } from '../../errors.ts'

/** The readable reason inside an Autodesk error body (Data Management, OSS and auth shapes). */
export function reasonFromBody(text: string): string | undefined {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    const plain = text.trim()
    return plain && !plain.startsWith('<') ? clean(plain) : undefined
  }
  if (!body || typeof body !== 'object') return undefined
  const b = body as Record<string, unknown>
  const first = (list: unknown) =>
    Array.isArray(list) ? (list[0] as Record<string, unknown>) : undefined
  const error = first(b.errors)
  const warning = first((b.meta as Record<string, unknown> | undefined)?.warnings)
  const candidates = [
    error?.detail,
    error?.title,
    b.reason,
    b.developerMessage,
    b.error_description,
    b.detail,
    b.message,
    warning?.Detail,
    warning?.Title,
    typeof b.error === 'string' ? b.error : undefined,
  ]
  const found = candidates.find((c) => typeof c === 'string' && c.trim() !== '')
  return typeof found === 'string' ? clean(found) : undefined
}

/** One line, bounded: the reason goes into a plain-text answer a person reads. */
function clean(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > 300 ? `${line.slice(0, 297)}...` : line
}

/** An upstream failure as the app's error: 401 → TokenRejectedError, 5xx → 502, 4xx kept. */
export function upstreamError(status: number, bodyText: string): AppError {
  const reason = reasonFromBody(bodyText)
  const because = reason ? `: ${reason}` : '.'
  if (status === 401) return new TokenRejectedError(`Autodesk refused the access token${because}`)
  if (status === 403) return new AppError(403, `Autodesk denied access${because}`)
  if (status === 404) return new AppError(404, `Not found in Autodesk${because}`)
  if (status === 429) return rateLimited(undefined)
  if (status >= 500) {
    return new AppError(
      502,
      `Autodesk is not answering properly (HTTP ${status}). Please try again later.`,
    )
  }
  if (status >= 400) return new AppError(status, `Autodesk refused the request${because}`)
  return new AppError(502, `Autodesk answered with an unexpected HTTP ${status}.`)
}

export function rateLimited(retryAfterMs: number | undefined): AppError {
  const wait =
    retryAfterMs !== undefined && retryAfterMs > 0
      ? `in ${Math.ceil(retryAfterMs / 1000)} seconds`
      : 'in a minute'
  return new AppError(429, `Autodesk is receiving too many requests. Please try again ${wait}.`)
}

export function badAnswer(what: string): AppError {
  return new AppError(502, `Autodesk sent ${what} that BOQ could not read.`)
}
