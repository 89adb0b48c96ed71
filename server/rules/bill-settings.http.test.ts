import { rm } from 'node:fs/promises'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BillSettingsDocumentSchema, BillSettingsVersionSchema } from '#contract/bill-settings.ts'
import { type Boq, BoqSchema } from '#contract/boq.ts'
import { type Job, JobSchema } from '#contract/jobs.ts'
import { PricedJobSchema, RepricedJobSchema } from '#contract/takeoff-rules-api.ts'
import { createClient, type TestClient } from '../testing/client.ts'
import { type DrawingRef, findDrawing, makeSeedDir } from '../testing/jobs/drawings.ts'
import { extractBody, postExtract, waitForJob } from '../testing/jobs/jobs-api.ts'
import { startSeveralUsersServer } from '../testing/jobs/several-users.ts'
import { SERVER_STORES } from '../testing/postgres.ts'
import type { TestServer } from '../testing/start-test-server.ts'

// The real server over loopback, on either store: the demo project (its example rules saved)
// gets bill settings; a drawing extracted then is priced with them, and a re-price takes the
// settings saved since. Ann sets them, Bob (who sees the project too) reads them.

const EUR_PRELIMS = {
  currency: 'EUR',
  client: 'Harbour Ltd',
  adjustments: [{ kind: 'percent', name: 'Preliminaries', percent: 10 }],
}

describe.each(SERVER_STORES)('bill settings over HTTP: %s store', (_name, makeStore) => {
  let server: TestServer
  let seedDir: string
  let drop: () => Promise<void>
  let ann: TestClient
  let bob: TestClient
  let drawing: DrawingRef
  let path: string

  beforeAll(async () => {
    const store = await makeStore()
    drop = store.drop
    seedDir = await makeSeedDir(['example_2018.dwg'])
    const started = await startSeveralUsersServer('boq-bill-settings-', seedDir, store.env)
    server = started.server
    ann = await started.signInAs(server.url, 'Ann')
    bob = await started.signInAs(server.url, 'Bob')
    drawing = await findDrawing(ann.json, 'example_2018.dwg')
    path = `/api/boq/projects/${encodeURIComponent(drawing.projectId)}/bill-settings`
  }, 60_000)

  afterAll(async () => {
    await server?.close()
    await rm(server?.dataDir ?? '', { recursive: true, force: true })
    await rm(seedDir, { recursive: true, force: true })
    await drop?.()
  })

  const put = (client: TestClient, settings: unknown, ifMatch?: string) =>
    client(path, {
      method: 'PUT',
      headers: {
        'content-type': 'application/json',
        ...(ifMatch === undefined ? {} : { 'if-match': ifMatch }),
      },
      body: JSON.stringify({ settings }),
    })

  async function expectText(response: Response, status: number, text: RegExp) {
    const body = await response.text()
    expect({ status: response.status, body }).toEqual({ status, body: expect.stringMatching(text) })
  }

  it('answers version 0 with no settings before any save, and an empty history', async () => {
    const response = await ann(path)
    expect(response.status).toBe(200)
    expect(response.headers.get('etag')).toBe('"0"')
    expect(v.parse(BillSettingsDocumentSchema, await response.json())).toEqual({
      version: 0,
      savedBy: null,
      savedAt: null,
      settings: {},
    })
    expect(await ann.json(`${path}/history`)).toEqual([])
  })

  it('refuses settings that do not check, naming each field, and keeps nothing', async () => {
    const wrong = {
      currency: 'EU',
      decimals: { nr: 9 },
      adjustments: [
        { kind: 'percent', name: 'Contingency', percent: 5000 },
        { kind: 'sum', name: 'Provisional sum', amount: 'a hundred' },
      ],
      colour: 'red',
    }
    const refused = await put(ann, wrong, '0')
    const text = await refused.text()
    expect(refused.status).toBe(400)
    expect(text).toContain('Currency: "EU" is not an ISO 4217 currency code')
    expect(text).toContain('Decimals of "nr": must be from 0 to 6.')
    expect(text).toContain('Adjustment 1 (Contingency), percent: must be from -100 to 1000.')
    expect(text).toContain('Adjustment 2 (Provisional sum), amount: must be a number.')
    await expectText(
      await put(
        ann,
        { adjustments: [{ kind: 'tax', name: 'VAT', percent: 20 }, EUR_PRELIMS.adjustments[0]] },
        '0',
      ),
      400,
      /^Adjustments: taxes come last/,
    )
    expect(text).toContain('Colour: is not a setting.')
    await expectText(await put(ann, [], '0'), 400, /must be a JSON object/)
    await expectText(
      await ann(path, { method: 'PUT', headers: { 'if-match': '0' }, body: '{"settings":' }),
      400,
      /must be JSON/,
    )
    await expectText(await put(ann, EUR_PRELIMS), 428, /If-Match/)
    await expectText(await put(ann, EUR_PRELIMS, 'three'), 400, /If-Match must be/)
    expect(await ann.json(path)).toMatchObject({ version: 0 })
  })

  it('saves the next version with If-Match, refuses a stale one naming who saved, keeps the history', async () => {
    const saved = await put(ann, EUR_PRELIMS, '0')
    expect(saved.status).toBe(200)
    expect(saved.headers.get('etag')).toBe('"1"')
    expect(v.parse(BillSettingsDocumentSchema, await saved.json())).toMatchObject({
      version: 1,
      savedBy: 'Ann',
      settings: EUR_PRELIMS,
    })
    await expectText(
      await put(bob, { currency: 'USD' }, '"0"'),
      412,
      /^Saved by Ann at \d\d:\d\d UTC since you opened it: reload to see their bill settings\.$/,
    )
    expect(await bob.json(path)).toMatchObject({ version: 1, settings: EUR_PRELIMS })
    const history = v.parse(v.array(BillSettingsVersionSchema), await bob.json(`${path}/history`))
    expect(history).toEqual([{ version: 1, savedBy: 'Ann', savedAt: expect.any(String) }])
    expect(await bob.json(`${path}/history/1`)).toMatchObject({ version: 1, settings: EUR_PRELIMS })
    await expectText(await bob(`${path}/history/2`), 404, /no such version of these bill settings/)
  })

  it('answers 404 for a project the person cannot see, and 401 without a sign-in', async () => {
    const unseen = '/api/boq/projects/b.not-a-project/bill-settings'
    for (const route of ['', '/history', '/history/1']) {
      await expectText(await ann(`${unseen}${route}`), 404, /no such project/)
    }
    expect((await ann(unseen, { method: 'PUT', body: '{}' })).status).toBe(404)
    expect((await createClient(server.url)(path)).status).toBe(401)
  })

  it('prices an extraction with them, and a re-price with the settings saved since', async () => {
    const posted = await postExtract(ann, extractBody(drawing))
    expect(posted.status).toBe(202)
    const job: Job = await waitForJob(ann, ((await posted.json()) as Job).id, {
      timeoutMs: 90_000,
    })
    expect(job.status).toBe('succeeded')
    expect(job.pricedWith).toEqual({
      rulesVersion: 1,
      classificationVersion: 1,
      settingsVersion: 1,
    })
    const bill: Boq = v.parse(BoqSchema, await ann.json(job.result?.jsonUrl ?? ''))
    const priced = bill.priced
    expect(priced?.currency).toEqual({ code: 'EUR', symbol: '€', decimals: 2 })
    expect(priced?.header).toMatchObject({ client: 'Harbour Ltd', settingsVersion: 1 })
    const itemsTotal = priced?.itemsTotal ?? 0
    expect(itemsTotal).toBeGreaterThan(0)
    const prelims = Math.round(itemsTotal * 10) / 100
    expect(priced?.adjustments).toEqual([
      expect.objectContaining({ kind: 'percent', name: 'Preliminaries', amount: prelims }),
    ])
    expect(priced?.total).toBeCloseTo(itemsTotal + prelims, 2)

    // Settings saved since: the bill of record keeps the old ones until it is re-priced.
    expect((await put(bob, { currency: 'GBP', title: 'Tender bill' }, '1')).status).toBe(200)
    const preview = v.parse(
      PricedJobSchema,
      await (await ann(`/api/boq/jobs/${job.id}/price`, { method: 'POST', body: '{}' })).json(),
    )
    expect(preview).toMatchObject({ settingsVersion: 2, priced: { currency: { code: 'GBP' } } })
    expect(v.parse(JobSchema, await ann.json(`/api/boq/jobs/${job.id}`)).pricedWith).toMatchObject({
      settingsVersion: 1,
    })

    const repriced = v.parse(
      RepricedJobSchema,
      await (await ann(`/api/boq/jobs/${job.id}/reprice`, { method: 'POST', body: '{}' })).json(),
    )
    expect(repriced).toMatchObject({
      settingsVersion: 2,
      priced: {
        currency: { code: 'GBP', symbol: '£' },
        header: { title: 'Tender bill', settingsVersion: 2 },
        adjustments: [],
        total: repriced.priced.itemsTotal,
      },
    })
    const after = v.parse(JobSchema, await ann.json(`/api/boq/jobs/${job.id}`))
    expect(after.pricedWith).toEqual({
      rulesVersion: 1,
      classificationVersion: 1,
      settingsVersion: 2,
    })
    const kept: Boq = v.parse(BoqSchema, await ann.json(after.result?.jsonUrl ?? ''))
    expect(kept.priced?.currency?.code).toBe('GBP')
  }, 120_000)
})
