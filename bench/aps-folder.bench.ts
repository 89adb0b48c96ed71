/**
 * Autodesk mode, one folder of 5,000 items (25 pages of 200) behind the fake Autodesk, each page
 * answered after 50 ms: the real server's time to answer GET …/contents?folder_id= (the whole
 * list) against the sequential bound 25 x 50 ms; target at most 0.5x. The server asks for the
 * pages PAGE_PARALLELISM at a time once the first one is known; the fake counts how many it has
 * at once, to show the bound holds.
 * Also measured, for comparison: a bare client reading the same pages straight from the fake,
 * one after another by links.next (the way the server did before), and PAGE_PARALLELISM at a time.
 */

import { settingsFor, signInAtFake } from '../dev/fake-aps/helpers.ts'
import type { SeedIds } from '../dev/fake-aps/seed.ts'
import { FAKE_CLIENT_ID, FAKE_CLIENT_SECRET, startFakeAps } from '../dev/fake-aps/server.ts'
import { startServer } from '../e2e/support/server.ts'
import { createApsAuthProvider } from '../server/cloud/aps/auth-provider.ts'
import { PAGE_PARALLELISM } from '../server/cloud/aps/list-pages.ts'
import { signInThroughFake } from '../server/testing/aps-product.ts'
import { describeMs, median, versusTarget } from './support/stats.ts'

const items = 5_000
const pageSize = 200
const pageDelayMs = 50
const rounds = 5
const pages = Math.ceil(items / pageSize)
const sequentialBound = pages * pageDelayMs
// The first page alone, then the other pages PAGE_PARALLELISM at a time.
const windowBound = (1 + Math.ceil((pages - 1) / PAGE_PARALLELISM)) * pageDelayMs

const fake = await startFakeAps()
const ids = fake.ids as SeedIds
const folder = fake.state.addFolder(ids.projectFilesId, 'Five thousand')
fake.state.addManyItems(folder.id, items)
fake.faults.pageDelayMs = pageDelayMs

const server = await startServer({
  env: {
    APS_CLIENT_ID: FAKE_CLIENT_ID,
    APS_CLIENT_SECRET: FAKE_CLIENT_SECRET,
    APS_CALLBACK_URL: 'http://127.0.0.1:9/api/aps/auth/callback',
    APS_BASE_URL: fake.url,
  },
})

try {
  const client = await signInThroughFake(server.url)
  const path = `/api/aps/hubs/${encodeURIComponent(ids.hubId)}/projects/${encodeURIComponent(ids.projectId)}/contents?folder_id=${encodeURIComponent(folder.id)}`

  const firstByte: number[] = []
  // Until the last byte of the answer; the whole list is checked after the clock stops.
  const timeOnce = async () => {
    const started = performance.now()
    const response = await client(path)
    firstByte.push(performance.now() - started)
    const bytes = await response.arrayBuffer()
    const ms = performance.now() - started
    const body = JSON.parse(new TextDecoder().decode(bytes)) as unknown[] | { data: unknown[] }
    // The API's list is a bare array; a { data } envelope is read as well.
    const list = Array.isArray(body) ? body : body.data
    if (!response.ok || list?.length !== items) {
      throw new Error(`expected ${items} items, got ${response.status}`)
    }
    return ms
  }
  await timeOnce() // warm-up (connections, JIT)
  const times: number[] = []
  let peak = 0
  for (let i = 0; i < rounds; i++) {
    fake.load.resetPeak()
    times.push(await timeOnce())
    peak = Math.max(peak, fake.load.peak)
  }

  console.log(
    `folder of ${items} items, ${pages} pages of ${pageSize}, ${pageDelayMs} ms per page, ${PAGE_PARALLELISM} pages at a time`,
  )
  console.log(
    `server answer: ${describeMs(times)} (headers after ${describeMs(firstByte.slice(1))})`,
  )
  console.log(
    `sequential bound (${pages} x ${pageDelayMs} ms): ${sequentialBound} ms; with ${PAGE_PARALLELISM} at a time after the first page: ${windowBound} ms`,
  )
  const ratio = median(times) / sequentialBound
  console.log(
    `ratio to the sequential bound: ${ratio.toFixed(3)}x — ${versusTarget(ratio, 0.5, 'x')}`,
  )
  console.log(`most page requests at the fake at once: ${peak} (bound ${PAGE_PARALLELISM})`)

  // The same pages straight from the fake, without the BOQ server.
  const { tokens } = await signInAtFake(createApsAuthProvider(settingsFor(fake)))
  const base = `${fake.url}/data/v1/projects/${encodeURIComponent(ids.projectId)}/folders/${encodeURIComponent(folder.id)}/contents`
  const fetchPage = async (n: number) => {
    const response = await fetch(`${base}?page%5Blimit%5D=${pageSize}&page%5Bnumber%5D=${n}`, {
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    })
    const page = (await response.json()) as { data: unknown[]; links: { next?: unknown } }
    return { count: page.data.length, last: !page.links.next }
  }
  const sequential: number[] = []
  for (let i = 0; i < rounds; i++) {
    const started = performance.now()
    let total = 0
    for (let n = 0; ; n++) {
      const { count, last } = await fetchPage(n)
      total += count
      if (last) break
    }
    if (total !== items) throw new Error(`sequential fetch got ${total} items`)
    sequential.push(performance.now() - started)
  }
  console.log(
    `bare client, one page after another: ${describeMs(sequential)} = ${(median(sequential) / sequentialBound).toFixed(2)}x of the sequential bound`,
  )
  const windowed: number[] = []
  for (let i = 0; i < rounds; i++) {
    const started = performance.now()
    // As the server does: page 0, then a window of PAGE_PARALLELISM until a page is the last.
    let total = (await fetchPage(0)).count
    let next = 1
    let end = Number.POSITIVE_INFINITY
    const worker = async () => {
      while (next <= end) {
        const n = next++
        const { count, last } = await fetchPage(n)
        if (n <= end) total += count
        if (last) end = Math.min(end, n)
      }
    }
    await Promise.all(Array.from({ length: PAGE_PARALLELISM }, worker))
    if (total !== items) throw new Error(`windowed fetch got ${total} items`)
    windowed.push(performance.now() - started)
  }
  console.log(
    `bare client, ${PAGE_PARALLELISM} at a time: ${describeMs(windowed)} = ${(median(windowed) / sequentialBound).toFixed(2)}x of the sequential bound`,
  )
} finally {
  await server.stop()
  await fake.close()
}
