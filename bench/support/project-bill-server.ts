import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import type { TakeoffRule } from '#contract/takeoff-rules.ts'
import { openEmbeddedBillStore } from '../../server/bills/embedded-bill-store.ts'
import { keptPricings } from '../../server/bills/kept-pricings.ts'
import { partsOnJobEnd } from '../../server/bills/parts-on-job-end.ts'
import { billRoutes } from '../../server/bills/routes.ts'
import type { Boq } from '../../server/boq/model/schema.ts'
import { priceWithTables } from '../../server/boq/price/price.ts'
import type { JsonApiResource } from '../../server/cloud/types.ts'
import { errorResponse } from '../../server/http/errors.ts'
import { createBillPool } from '../../server/jobs/bill-pool.ts'
import { openEmbeddedJobStore } from '../../server/jobs/embedded-store.ts'
import type { JobRecord } from '../../server/jobs/types.ts'
import { listeners } from '../../server/lib/listeners.ts'
import { openEmbeddedRulesStore } from '../../server/rules/store/embedded-store.ts'
import { contextFor, createFakeCloud, TEST_TOKEN_KEY } from '../../server/testing/jobs/fakes.ts'

const PROJECT = 'p1'
/** The project whose bill was made before its drawings' jobs ended. */
const LATER = 'p2'
const FOLDER = 'f1'
const LATER_FOLDER = 'f2'
const USER = 'ann'

/**
 * The project bills' routes over loopback, on an embedded job store holding a finished job per
 * drawing (its kept bill given, priced at extraction with the project's rules as the runner
 * prices it, and the versions it was priced with noted), a fake cloud of one folder of those
 * drawings, and `rules` saved for the project; the user by `x-user`, who sees the project.
 * Each job ends as the server ends one: the job-ended path makes its drawing's part in the
 * background when its project has a project bill. The first project's bill is made after its
 * jobs ended (a bill over older jobs: nothing made for it yet); `laterBillUrl` is a bill of a
 * second project, made before the same drawings' jobs ended there (their parts made as they
 * ended, waited for). `newVersion` gives a drawing its next version in the cloud and a finished
 * job for it, as a watched folder's extraction ends; `saveRules` saves the next version of the
 * rules; `restart` answers from routes of their own, as another process (or this one restarted)
 * would.
 */
export async function projectBillServer(options: { drawings: Boq[]; rules: TakeoffRule[] }) {
  const dataDir = await mkdtemp(join(tmpdir(), 'boq-bench-project-bill-'))
  const ended = listeners<JobRecord>((error) => console.error('a job-ended listener failed', error))
  const store = await openEmbeddedJobStore({
    dataDir,
    tokenKey: TEST_TOKEN_KEY,
    log: () => {},
    // Both projects' drawings and their new versions stay the person's (100 kept by default).
    keepPerUser: 1000,
    // As the server's stores tell of a job that ended.
    onChange: ({ job }) => {
      if (job.status === 'succeeded' || job.status === 'failed') ended.notify(job)
    },
  })
  const rules = openEmbeddedRulesStore({ dataDir, log: () => {} })
  let rulesVersion = 0
  let rulesNow: TakeoffRule[] = []
  // Each bill priced once with the rules now, as the runner prices a new job's.
  const pricedJson = new Map<Boq, Uint8Array>()
  const saveRules = async (rows: TakeoffRule[]) => {
    for (const project of [PROJECT, LATER]) {
      const saved = await rules.saveRules(project, 'rules', rulesVersion, rows, USER)
      if (!('saved' in saved)) throw new Error('The bench’s rules were not saved.')
    }
    rulesVersion++
    rulesNow = rows
    pricedJson.clear()
  }
  await saveRules(options.rules)
  const extracted = (bill: Boq): Uint8Array => {
    let json = pricedJson.get(bill)
    if (!json) {
      const versions = { rulesVersion, classificationVersion: 0, settingsVersion: 0 }
      const priced = priceWithTables(bill, { rules: rulesNow, classification: [], versions })
      json = new TextEncoder().encode(JSON.stringify({ ...bill, priced }))
      pricedJson.set(bill, json)
    }
    return json
  }
  const bills = await openEmbeddedBillStore({ dataDir })
  const fake = createFakeCloud()

  async function finishedJob(
    fileName: string,
    storageId: string,
    bill: Boq,
    place = { projectId: PROJECT, folderId: FOLDER },
  ): Promise<string> {
    const { job } = await store.submit(
      {
        fileName,
        projectId: place.projectId,
        fileFolderId: place.folderId,
        fileStorageId: storageId,
        context: contextFor(USER),
      },
      { maxActivePerUser: 10 },
    )
    await store.claim()
    await store.notePricedWith(job.id, {
      rulesVersion,
      classificationVersion: 0,
      settingsVersion: 0,
    })
    await store.succeed(
      job.id,
      { fileName: `${fileName} BOQ.xlsx`, itemId: 'x', versionNumber: 1, jsonKept: true },
      { xlsx: new Uint8Array(1), csv: new Uint8Array(1), json: extracted(bill) },
    )
    return job.id
  }

  const versionOf = (itemId: string, number: number): JsonApiResource => ({
    id: `${itemId}?version=${number}`,
    type: 'versions',
    attributes: { versionNumber: number, displayName: `${itemId}.dwg` },
    relationships: { storage: { data: { id: `${itemId}-v${number}`, type: 'objects' } } },
  })

  const pool = createBillPool({ threads: 1 })
  // What one process keeps: the routes' parts and the parts made as jobs end, shared.
  const oneProcess = () => {
    const kept = keptPricings()
    return { kept, made: partsOnJobEnd({ store, bills, rules, pool, kept }) }
  }
  let now = oneProcess()
  ended.add((job) => now.made.jobEnded(job))

  /** A folder of the drawings in the cloud, each one's first version's job ended. */
  async function drawingsIn(place: { projectId: string; folderId: string }, prefix: string) {
    const contents: JsonApiResource[] = []
    fake.lists.contents.set(place.folderId, contents)
    for (const [i, bill] of options.drawings.entries()) {
      const itemId = `${prefix}${String(i + 1).padStart(3, '0')}`
      contents.push({ id: itemId, type: 'items', attributes: { displayName: `${itemId}.dwg` } })
      fake.lists.versions.set(itemId, [versionOf(itemId, 1)])
      await finishedJob(`${itemId}.dwg`, `${itemId}-v1`, bill, place)
    }
  }
  await drawingsIn({ projectId: PROJECT, folderId: FOLDER }, 'D')

  const routes = () => {
    const app = new Hono()
    app.onError(errorResponse)
    app.route(
      '/api/boq',
      billRoutes({
        bills,
        jobs: store,
        rules,
        cloud: fake.cloud,
        pool,
        kept: now.kept,
        projectPlace: async () => ({ hubId: 'h1' }),
        withCloud: (c, fn) => fn(contextFor(c.req.header('x-user') ?? '')),
      }),
    )
    return app
  }
  let app = routes()
  const server = serve({
    fetch: (request) => app.fetch(request),
    port: 0,
    hostname: '127.0.0.1',
  })
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as AddressInfo
  const billsOf = (projectId: string) =>
    `http://127.0.0.1:${port}/api/boq/projects/${projectId}/bills`
  const makeBill = async (projectId: string, folderId: string): Promise<string> => {
    const made = await fetch(billsOf(projectId), {
      method: 'POST',
      headers: { 'x-user': USER, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench', folderIds: [folderId] }),
    })
    if (made.status !== 201) throw new Error(`POST bills answered ${made.status}`)
    const { id } = (await made.json()) as { id: string }
    return `${billsOf(projectId)}/${id}`
  }
  const billUrl = await makeBill(PROJECT, FOLDER)
  // The second project's bill first, then its drawings' jobs end: their parts are made then.
  const laterBillUrl = await makeBill(LATER, LATER_FOLDER)
  await drawingsIn({ projectId: LATER, folderId: LATER_FOLDER }, 'E')
  await now.made.idle()

  return {
    billUrl,
    laterBillUrl,
    listUrl: billsOf(PROJECT),
    saveRules,
    /** Routes of their own, as another process's: nothing kept in memory. */
    async restart(): Promise<void> {
      await now.made.close()
      now = oneProcess()
      app = routes()
    },
    /** The drawing's next version in the cloud, and its job finished with `bill`. */
    async newVersion(index: number, bill: Boq): Promise<void> {
      const itemId = `D${String(index + 1).padStart(3, '0')}`
      const versions = fake.lists.versions.get(itemId) ?? []
      const number = versions.length + 1
      fake.lists.versions.set(itemId, [versionOf(itemId, number), ...versions])
      await finishedJob(`${itemId}.dwg`, `${itemId}-v${number}`, bill)
    },
    async close(): Promise<void> {
      await new Promise((resolve) => server.close(resolve))
      await now.made.close()
      await pool.close()
      await bills.close()
      await store.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
