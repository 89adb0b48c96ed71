import { HttpResponse, http } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { fakeApi } from '../testing/fake-api'
import { server } from '../testing/msw-server'
import { errorText, httpStatus } from './http-errors'
import { plainGet } from './plain-get'

describe('plainGet', () => {
  it('GETs the path against the API base, with cookies', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch')
    const response = await plainGet('api/aps/auth/login')
    expect(await response.text()).toBe(fakeApi.loginUrl)
    expect(fakeApi.requests.at(-1)?.url.href).toBe(`${window.location.origin}/api/aps/auth/login`)
    expect(fetchSpy.mock.calls[0]?.[1]).toMatchObject({ credentials: 'include' })
  })

  it("rejects a failed answer with an error read like ky's: status and plain-text reason", async () => {
    server.use(http.get('*/api/fails', () => new HttpResponse('Gateway down', { status: 502 })))
    const error = await plainGet('api/fails').catch((caught: unknown) => caught)
    expect(httpStatus(error)).toBe(502)
    expect(errorText(error)).toBe('Gateway down')
    expect((error as Error).message).toContain('502')
  })
})
