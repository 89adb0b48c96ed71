import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { settingsFor, signInAtFake } from '../../../dev/fake-aps/helpers.ts'
import type { SeedIds } from '../../../dev/fake-aps/seed.ts'
import { type FakeAps, startFakeAps } from '../../../dev/fake-aps/server.ts'
import { AppError } from '../../errors.ts'
import type { CloudContext } from '../types.ts'
import { createApsAuthProvider } from './auth-provider.ts'
import { createApsCloudBackend } from './backend.ts'
import { PAGE_PARALLELISM } from './list-pages.ts'

let fake: FakeAps
let ids: SeedIds
let ctx: CloudContext
/** What the backend did, in order: `fetch <page>` as a page request leaves, `sleep <ms>`, `woke`. */
const events: string[] = []
const user = { userId: 'FAKEUSER0001', name: 'Ada Lovelace', picture: '' }

const pageNumberOf = (url: string) =>
  Number(new URL(url, 'http://x').searchParams.get('page[number]') ?? '0')

function backend() {
  return createApsCloudBackend(settingsFor(fake), {
    fetch: (input, init) => {
      events.push(`fetch ${pageNumberOf(String(input))}`)
      return globalThis.fetch(input, init)
    },
    // A Retry-After wait is recorded and lasts a moment, long enough for any request that would
    // leave during it to be seen; its length is not what is checked.
    sleep: async (ms) => {
      events.push(`sleep ${ms}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
      events.push('woke')
    },
  })
}

/**
 * A new folder of `items` items and its contents path at the fake. Each test has its own, so a
 * request of an earlier test still on its way cannot take a fault meant for this one.
 */
function bigFolder(items: number) {
  const { id } = fake.state.addFolder(ids.projectFilesId, `Big ${fake.state.folders.size}`)
  fake.state.addManyItems(id, items)
  return { id, path: `/data/v1/projects/${ids.projectId}/folders/${id}/contents` }
}

/** The folder's item ids as one reader following links.next page after page gets them. */
async function sequentialIds(folderId: string): Promise<string[]> {
  const out: string[] = []
  let next: string | undefined =
    `${fake.url}/data/v1/projects/${encodeURIComponent(ids.projectId)}/folders/${encodeURIComponent(folderId)}/contents?page%5Blimit%5D=200`
  while (next) {
    const response = await fetch(next, { headers: { authorization: `Bearer ${ctx.accessToken}` } })
    const page = (await response.json()) as {
      data: { id: string }[]
      links: { next?: { href: string } }
    }
    out.push(...page.data.map((r) => r.id))
    next = page.links.next?.href
  }
  return out
}

/** The page numbers the fake was asked for since `before`, on that path. */
const pagesAsked = (before: number, path: string) =>
  fake.requests
    .slice(before)
    .filter((r) => decodeURIComponent(r.path) === path)
    .map((r) => pageNumberOf(r.query))

beforeAll(async () => {
  fake = await startFakeAps()
  ids = fake.ids as SeedIds
  const { tokens } = await signInAtFake(createApsAuthProvider(settingsFor(fake)))
  ctx = { user, accessToken: tokens.accessToken }
})
afterAll(() => fake.close())
beforeEach(() => {
  fake.faults.clear()
  events.length = 0
})

describe('a big Autodesk folder, its pages asked for several at a time', () => {
  it('keeps page order over many pages, also when later pages answer first', async () => {
    const folder = bigFolder(3_000) // 15 pages of 200
    const expected = await sequentialIds(folder.id)
    expect(expected).toHaveLength(3_000)
    fake.faults.pageDelayMs = (page) => (15 - page) * 4
    const before = fake.requests.length
    const list = await backend().contents(ctx, ids.hubId, ids.projectId, folder.id)
    expect(list.map((r) => r.id)).toEqual(expected)
    const asked = pagesAsked(before, folder.path)
    expect(asked.filter((n) => n < 15).sort((a, b) => a - b)).toEqual([...Array(15).keys()])
    // Past the end, at most the pages asked for ahead while the last one was on its way.
    expect(asked.filter((n) => n >= 15).length).toBeLessThan(PAGE_PARALLELISM)
  })

  it('never has more than PAGE_PARALLELISM page requests at the fake at once', async () => {
    const folder = bigFolder(3_000)
    // Two pages asked for together are held until both are at the fake: they overlap there.
    fake.faults.holdPages(2)
    fake.load.resetPeak()
    const list = await backend().contents(ctx, ids.hubId, ids.projectId, folder.id)
    expect(list).toHaveLength(3_000)
    expect(fake.load.peak).toBeGreaterThan(1)
    expect(fake.load.peak).toBeLessThanOrEqual(PAGE_PARALLELISM)
  })

  it('honours a 429 in the middle: Retry-After waited, nothing sent meanwhile, the list whole', async () => {
    const folder = bigFolder(3_000)
    const expected = await sequentialIds(folder.id)
    fake.faults.add({ path: folder.path, query: 'page[number]=6', status: 429, retryAfter: 2 })
    const before = fake.requests.length
    const list = await backend().contents(ctx, ids.hubId, ids.projectId, folder.id)
    expect(list.map((r) => r.id)).toEqual(expected)
    expect(events.filter((e) => e.startsWith('sleep'))).toEqual(['sleep 2000'])
    const during = events.slice(events.indexOf('sleep 2000') + 1, events.indexOf('woke'))
    expect(during).toEqual([])
    expect(events.slice(events.indexOf('woke'))).toContain('fetch 6')
    expect(pagesAsked(before, folder.path).filter((n) => n === 6)).toHaveLength(2)
  })

  it('fails the listing with the plain-text 429 when a page must wait beyond the window', async () => {
    const folder = bigFolder(3_000)
    fake.faults.add({ path: folder.path, query: 'page[number]=3', status: 429, retryAfter: 120 })
    const error = await backend()
      .contents(ctx, ids.hubId, ids.projectId, folder.id)
      .catch((e) => e)
    expect(error).toBeInstanceOf(AppError)
    expect(error.status).toBe(429)
    expect(error.message).toBe(
      'Autodesk is receiving too many requests. Please try again in 120 seconds.',
    )
  })

  it('fails the whole listing when one page fails, with the error of that page', async () => {
    const folder = bigFolder(3_000)
    fake.faults.add({ path: folder.path, query: 'page[number]=7', status: 500 })
    const error = await backend()
      .contents(ctx, ids.hubId, ids.projectId, folder.id)
      .catch((e) => e)
    expect(error).toBeInstanceOf(AppError)
    expect(error.status).toBe(502)
    expect(error.message).toBe(
      'Autodesk is not answering properly (HTTP 500). Please try again later.',
    )

    // Another folder: a page of the first listing asked ahead may still be on its way.
    const other = bigFolder(3_000)
    fake.faults.add({ path: other.path, query: 'page[number]=12', status: 403 })
    const denied = await backend()
      .contents(ctx, ids.hubId, ids.projectId, other.id)
      .catch((e) => e)
    expect(denied.status).toBe(403)
    expect(denied.message).toBe('Autodesk denied access: A fault the test asked for.')
  })

  it('is not failed by pages asked for past the end of the list', async () => {
    const folder = bigFolder(2_000) // pages 0 to 9
    for (const page of [10, 11, 12]) {
      fake.faults.add({ path: folder.path, query: `page[number]=${page}`, status: 500 })
    }
    // The last page comes back late, so the pages past it are surely asked for (and fail) first.
    fake.faults.pageDelayMs = (page) => (page === 9 ? 60 : 0)
    const before = fake.requests.length
    const list = await backend().contents(ctx, ids.hubId, ids.projectId, folder.id)
    expect(list.map((r) => r.id)).toEqual(await sequentialIds(folder.id))
    expect(pagesAsked(before, folder.path).filter((n) => n >= 10).length).toBeGreaterThan(0)
  })

  it('asks for a folder of one page once', async () => {
    const before = fake.requests.length
    const list = await backend().contents(ctx, ids.hubId, ids.projectId, ids.drawingsId)
    expect(list).toHaveLength(4)
    expect(fake.requests.length - before).toBe(1)
  })
})
