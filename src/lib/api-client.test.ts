import { HttpResponse, http } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { setCookie } from '../testing/cookies'
import { fakeApi } from '../testing/fake-api'
import { server } from '../testing/msw-server'
import { api, createApiClient, XSRF_CONTEXT } from './api-client'

describe('api client', () => {
  it('resolves paths against the API base (this origin when VITE_API_URL is unset)', async () => {
    await api.get('api/boq/jobs').json()
    expect(fakeApi.requests.at(-1)?.url.href).toBe(`${window.location.origin}/api/boq/jobs`)
  })

  it('sends cookies on every call', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch')
    await api.get('api/boq/jobs').json()
    await api.post('api/boq/extract', { json: {} })
    const sent = fetchSpy.mock.calls.map(([input]) => input as Request)
    expect(sent).toHaveLength(2)
    for (const request of sent) expect(request.credentials).toBe('include')
  })

  it('echoes the XSRF-TOKEN cookie as X-XSRF-TOKEN on same-origin mutating calls only', async () => {
    setCookie('XSRF-TOKEN', 't%2Bk3n')
    await api.post('api/boq/extract', { json: { fileName: 'a.dwg' } })
    const post = fakeApi.requests.at(-1)
    expect(post?.method).toBe('POST')
    expect(post?.headers.get('X-XSRF-TOKEN')).toBe('t+k3n')

    await api.get('api/boq/jobs')
    expect(fakeApi.requests.at(-1)?.headers.has('X-XSRF-TOKEN')).toBe(false)
  })

  it('echoes it on a GET that asks for it (a GET that changes state, such as logout)', async () => {
    setCookie('XSRF-TOKEN', 'g3t')
    await api.get('api/boq/jobs', { context: XSRF_CONTEXT })
    expect(fakeApi.requests.at(-1)?.headers.get('X-XSRF-TOKEN')).toBe('g3t')
  })

  it('never sends the token to another origin', async () => {
    setCookie('XSRF-TOKEN', 'secret')
    let header: string | null = 'unset'
    server.use(
      http.post('https://api.elsewhere.test/api/boq/extract', ({ request }) => {
        header = request.headers.get('X-XSRF-TOKEN')
        return HttpResponse.json({})
      }),
    )
    await createApiClient('https://api.elsewhere.test/').post('api/boq/extract', { json: {} })
    expect(header).toBeNull()

    server.use(
      http.get('https://api.elsewhere.test/api/aps/auth/logout', ({ request }) => {
        header = request.headers.get('X-XSRF-TOKEN')
        return new HttpResponse(null, { status: 204 })
      }),
    )
    await createApiClient('https://api.elsewhere.test/').get('api/aps/auth/logout', {
      context: XSRF_CONTEXT,
    })
    expect(header).toBeNull()
  })

  it('does not retry by itself (Query owns retries)', async () => {
    let calls = 0
    server.use(
      http.get('*/api/flaky', () => {
        calls++
        return new HttpResponse('no', { status: 503 })
      }),
    )
    await expect(api.get('api/flaky').json()).rejects.toThrow()
    expect(calls).toBe(1)
  })
})
