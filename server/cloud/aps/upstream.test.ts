import { describe, expect, it } from 'vitest'
import { AppError, TokenRejectedError } from '../../errors.ts'
import { earlyNextLink } from './list-pages.ts'
import { createUpstream, retryAfterMs } from './upstream.ts'
import { reasonFromBody, upstreamError } from './upstream-errors.ts'

describe('Retry-After', () => {
  it('reads seconds and HTTP dates; without one, a short growing pause', () => {
    expect(retryAfterMs('3', 1, 0)).toBe(3000)
    const now = Date.parse('2025-03-01T10:00:00Z')
    expect(retryAfterMs('Sat, 01 Mar 2025 10:00:07 GMT', 1, now)).toBe(7000)
    expect(retryAfterMs('Sat, 01 Mar 2025 09:00:00 GMT', 1, now)).toBe(0)
    expect(retryAfterMs(null, 1, 0)).toBe(500)
    expect(retryAfterMs('soon', 3, 0)).toBe(2000)
    expect(retryAfterMs(null, 20, 0)).toBe(8000)
  })
})

describe('upstream errors', () => {
  it('finds the readable reason in each Autodesk error shape', () => {
    expect(
      reasonFromBody('{"errors":[{"status":"404","title":"Not Found","detail":"No folder."}]}'),
    ).toBe('No folder.')
    expect(reasonFromBody('{"reason":"Bucket not found"}')).toBe('Bucket not found')
    expect(reasonFromBody('{"developerMessage":"Token expired","errorCode":"AUTH-006"}')).toBe(
      'Token expired',
    )
    expect(reasonFromBody('{"error":"invalid_grant","error_description":"Used."}')).toBe('Used.')
    expect(
      reasonFromBody(
        '{"meta":{"warnings":[{"HttpStatusCode":"403","Detail":"You don\'t have permission"}]}}',
      ),
    ).toBe("You don't have permission")
    expect(reasonFromBody('<html>gateway</html>')).toBeUndefined()
    expect(reasonFromBody(`{"reason":"${'x'.repeat(400)}"}`)?.length).toBe(300)
  })

  it('maps statuses: 401 → TokenRejectedError, 5xx → 502, 4xx kept', () => {
    expect(upstreamError(401, '')).toBeInstanceOf(TokenRejectedError)
    expect(upstreamError(503, '').status).toBe(502)
    expect(upstreamError(409, '{"reason":"exists"}')).toMatchObject({
      status: 409,
      message: 'Autodesk refused the request: exists',
    })
    expect(upstreamError(403, '').message).toBe('Autodesk denied access.')
  })
})

describe('the upstream client', () => {
  it('never sends the token to another origin through links.next', async () => {
    const calls: string[] = []
    const fetch = (async (url: string) => {
      calls.push(url)
      return new Response(
        JSON.stringify({
          data: [{ id: '1' }],
          links: { next: { href: 'https://evil.example/steal' } },
        }),
      )
    }) as unknown as typeof globalThis.fetch
    const upstream = createUpstream({ baseUrl: 'https://developer.api.autodesk.com', fetch })
    const error = await upstream
      .allPages('https://developer.api.autodesk.com/project/v1/hubs', 't')
      .catch((e) => e)
    expect(error).toBeInstanceOf(AppError)
    expect(error.status).toBe(502)
    expect(calls).toEqual(['https://developer.api.autodesk.com/project/v1/hubs'])
  })

  it('stops a list whose next link loops', async () => {
    const fetch = (async () =>
      new Response(
        JSON.stringify({ data: [], links: { next: { href: '/project/v1/hubs' } } }),
      )) as unknown as typeof globalThis.fetch
    const upstream = createUpstream({ baseUrl: 'https://developer.api.autodesk.com', fetch })
    const error = await upstream
      .allPages('https://developer.api.autodesk.com/project/v1/hubs', 't')
      .catch((e) => e)
    expect(error.status).toBe(502)
  })

  it('follows links.next page after page when the pages are not numbered', async () => {
    const calls: string[] = []
    const fetch = (async (url: string) => {
      calls.push(url)
      const cursor = Number(new URL(url).searchParams.get('cursor') ?? 0)
      const next = cursor < 3 ? { href: `/project/v1/hubs?cursor=${cursor + 1}` } : undefined
      return new Response(JSON.stringify({ data: [{ id: String(cursor) }], links: { next } }))
    }) as unknown as typeof globalThis.fetch
    const upstream = createUpstream({ baseUrl: 'https://developer.api.autodesk.com', fetch })
    const list = await upstream.allPages('https://developer.api.autodesk.com/project/v1/hubs', 't')
    expect(list.map((r) => r.id)).toEqual(['0', '1', '2', '3'])
    expect(calls).toHaveLength(4)
  })

  it('refuses numbered pages whose next links skip a page', async () => {
    const fetch = (async (url: string) => {
      const number = Number(new URL(url).searchParams.get('page[number]') ?? 0)
      const next = `/project/v1/hubs?page%5Bnumber%5D=${number === 2 ? 5 : number + 1}`
      return new Response(
        JSON.stringify({ data: [{ id: String(number) }], links: { next: { href: next } } }),
      )
    }) as unknown as typeof globalThis.fetch
    const upstream = createUpstream({ baseUrl: 'https://developer.api.autodesk.com', fetch })
    const error = await upstream
      .allPages('https://developer.api.autodesk.com/project/v1/hubs', 't')
      .catch((e) => e)
    expect(error).toMatchObject({
      status: 502,
      message: 'Autodesk sent a list whose pages do not follow each other that BOQ could not read.',
    })
  })

  it('answers 502 when Autodesk cannot be reached', async () => {
    const fetch = (async () => {
      throw new TypeError('fetch failed')
    }) as unknown as typeof globalThis.fetch
    const upstream = createUpstream({ baseUrl: 'https://developer.api.autodesk.com', fetch })
    const error = await upstream
      .send('https://developer.api.autodesk.com/project/v1/hubs')
      .catch((e) => e)
    expect(error).toMatchObject({
      status: 502,
      message: 'Autodesk could not be reached. Please try again later.',
    })
  })
})

describe('early next link', () => {
  it('finds links.next in the page text before parsing, and only the document key', () => {
    const page = JSON.stringify({
      jsonapi: { version: '1.0' },
      links: { self: { href: '/a' }, next: { href: '/a?page%5Bnumber%5D=1&x=%22' } },
      data: [{ attributes: { name: '"next":{"href":"/evil"}' } }],
    })
    expect(earlyNextLink(page)).toBe('/a?page%5Bnumber%5D=1&x=%22')
    expect(
      earlyNextLink(
        JSON.stringify({ data: [{ attributes: { name: '"next":{"href":"/evil"}' } }] }),
      ),
    ).toBeUndefined()
  })
})
