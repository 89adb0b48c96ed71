import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import type { TakeoffRule } from '#contract/takeoff-rules.ts'
import { errorResponse } from '../../server/http/errors.ts'
import { createBillPool } from '../../server/jobs/bill-pool.ts'
import { openEmbeddedJobStore } from '../../server/jobs/embedded-store.ts'
import { perUserLimit } from '../../server/jobs/per-user-limit.ts'
import { priceRoutes } from '../../server/rules/price-routes.ts'
import { openEmbeddedRulesStore } from '../../server/rules/store/embedded-store.ts'
import { contextFor, createFakeCloud, TEST_TOKEN_KEY } from '../../server/testing/jobs/fakes.ts'

/**
 * A finished job keeping `keptJson` as its bill, in an embedded job store, with `rules` saved
 * for its project; the price routes served over loopback (the user by `x-user`, who sees the
 * project). Times `runs` re-pricings after two that warm the code up, as a running server is.
 */
export async function repriceOverHttp(
  keptJson: string,
  rules: TakeoffRule[],
  runs: number,
): Promise<{ times: number[]; answerBytes: number }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'boq-bench-reprice-'))
  const store = await openEmbeddedJobStore({ dataDir, tokenKey: TEST_TOKEN_KEY, log: () => {} })
  const fake = createFakeCloud()
  const { job } = await store.submit(
    {
      fileName: 'plan.dwg',
      projectId: 'p1',
      fileFolderId: 'f1',
      fileStorageId: 'v1',
      context: contextFor('ann'),
    },
    { maxActivePerUser: 10 },
  )
  await store.claim()
  await store.succeed(
    job.id,
    { fileName: 'plan BOQ.xlsx', itemId: 'i', versionNumber: 1, jsonKept: true },
    { xlsx: new Uint8Array(1), csv: new Uint8Array(1), json: new TextEncoder().encode(keptJson) },
  )
  const tables = openEmbeddedRulesStore({ dataDir, log: () => {} })
  await tables.saveRules('p1', 'rules', 0, rules, 'ann')
  const bills = createBillPool()
  const app = new Hono()
  app.onError(errorResponse)
  app.route(
    '/api/boq',
    priceRoutes({
      store,
      rules: tables,
      bills,
      heavy: perUserLimit(2),
      cloud: fake.cloud,
      withCloud: (c, fn) => fn(contextFor(c.req.header('x-user') ?? '')),
      visibleProject: async () => ({ name: 'p1' }),
    }),
  )
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}/api/boq/jobs/${job.id}/reprice`
  try {
    const times: number[] = []
    let answerBytes = 0
    for (let run = 0; run < runs + 2; run++) {
      const started = performance.now()
      const answer = await fetch(url, { method: 'POST', headers: { 'x-user': 'ann' } })
      const body = await answer.arrayBuffer()
      const ms = performance.now() - started
      if (!answer.ok) throw new Error(`reprice answered ${answer.status}`)
      answerBytes = body.byteLength
      if (run >= 2) times.push(ms)
    }
    return { times, answerBytes }
  } finally {
    await new Promise((resolve) => server.close(resolve))
    await bills.close()
    await store.close()
    await rm(dataDir, { recursive: true, force: true })
  }
}
