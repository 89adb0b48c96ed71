import { HttpResponse, http } from 'msw'
import { describe, expect, it } from 'vitest'
import { server } from '../testing/msw-server'
import { api } from './api-client'
import { errorText, httpStatus } from './http-errors'

async function failure(response: () => Response): Promise<unknown> {
  server.use(http.get('*/api/fails', response))
  return api
    .get('api/fails')
    .json()
    .catch((error: unknown) => error)
}

describe('http errors', () => {
  it("reads the status and the plain-text body of ky's HTTPError", async () => {
    const error = await failure(() => new HttpResponse('Folder not found', { status: 404 }))
    expect(httpStatus(error)).toBe(404)
    expect(errorText(error)).toBe('Folder not found')
  })

  it('falls back to the status line for an empty body', async () => {
    const error = await failure(
      () => new HttpResponse(null, { status: 502, statusText: 'Bad Gateway' }),
    )
    expect(errorText(error)).toBe('502 Bad Gateway')
  })

  it('has no status for other errors', () => {
    expect(httpStatus(new TypeError('Failed to fetch'))).toBeUndefined()
    expect(errorText(new TypeError('Failed to fetch'))).toBe('Failed to fetch')
  })
})
