import { plainGet } from './plain-get'

/**
 * GETs a path whose answer is a URL to send the browser to (the sign-in's, a watch's consent),
 * which the server answers as plain text or as a JSON string.
 */
export async function fetchUrlAnswer(path: string): Promise<string> {
  const body = (await (await plainGet(path)).text()).trim()
  if (body.startsWith('"')) {
    const parsed: unknown = JSON.parse(body)
    if (typeof parsed === 'string') return parsed
  }
  return body
}
