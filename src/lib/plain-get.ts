import { apiUrl } from './config'
import { PlainHttpError } from './http-errors'

/**
 * A GET of an API path with plain fetch, for the few calls made before the app loads its HTTP
 * client (ky): cookies go along, and an answer that is not 2xx rejects with an error that
 * httpStatus and errorText read like ky's HTTPError.
 */
export async function plainGet(path: string): Promise<Response> {
  const response = await fetch(apiUrl(path), { credentials: 'include' })
  if (!response.ok) throw new PlainHttpError(response, await response.text().catch(() => ''))
  return response
}
