import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import type { TakeoffRule } from '#contract/takeoff-rules.ts'
import { openEmbeddedBillStore } from '../../server/bills/embedded-bill-store.ts'
import { keptPricings } from '../../server/bills/kept-pricings.ts'
import { billRoutes } from '../../server/bills/routes.ts'
import type { Boq } from '../../server/boq/model/schema.ts'
import { priceWithTables } from '../../server/boq/price/price.ts'
import { renderFiles } from '../../server/boq/write/files.ts'
import type { JsonApiResource } from '../../server/cloud/types.ts'
import { errorResponse } from '../../server/http/errors.ts'
import { createBillPool } from '../../server/jobs/bill-pool.ts'
import { openEmbeddedJobStore } from '../../server/jobs/embedded-store.ts'
import { openEmbeddedRulesStore } from '../../server/rules/store/embedded-store.ts'
import { contextFor, createFakeCloud, TEST_TOKEN_KEY } from '../../server/testing/jobs/fakes.ts'

const PROJECT = 'p1'
/** The project whose drawings' jobs were kept by an older BOQ, which kept no parts. */
const OLDER = 'p2'
const FOLDER = 'f1'
const OLDER_FOLDER = 'f2'
const USER = 'ann'

/**
 * The project bills' routes over loopback, on an embedded job store holding a finished job per
 * drawing (its kept bill given, priced at extraction with the project's rules, its part of a
 * project bill kept with it, and the versions it was priced with noted, as the runner keeps a
 * job), a fake cloud of one folder of those drawings, and `rules` saved for the project; the
 * user by `x-user`, who sees the project. `olderBillUrl` is a bill of a second project of the
 * same drawings whose jobs an older BOQ kept (no parts: each bill of record is read).
 * `newVersion` gives a drawing its next version in the cloud and a finished job for it, as a
 * watched folder's extraction ends; `saveRules` saves the next version of the rules; `restart`
 * answers from routes of their own, as another process (or this one restarted) would.
 */
export async function projectBillServer(options: { drawings: Boq[]; rules: TakeoffRule[] }) {
  const dataDir = await mkdtemp(join(tmpdir(), 'boq-bench-project-bill-'))
  const store = await openEmbeddedJobStore({
    dataDir,
    tokenKey: TEST_TOKEN_KEY,
    log: () => {},
    // Both projects' drawings and their new versions stay the person's (100 kept by default).
    keepPerUser: 1000,
  })
  const rules = openEmbeddedRulesStore({ dataDir, log: () => {} })
  let rulesVersion = 0
  let rulesNow: TakeoffRule[] = []
  // Each bill priced once with the rules now, and written, as the runner writes a new job's.
  const pricedFiles = new Map<Boq, { json: Uint8Array; part: Uint8Array }>()
  const saveRules = async (rows: TakeoffRule[]) => {
    for (const project of [PROJECT, OLDER]) {
      const saved = await rules.saveRules(project, 'rules', rulesVersion, rows, USER)
      if (!('saved' in saved)) throw new Error('The bench’s rules were not saved.')
    }
    rulesVersion++
    rulesNow = rows
    pricedFiles.clear()
  }
  await saveRules(options.rules)
  const extracted = async (bill: Boq) => {
    let files = pricedFiles.get(bill)
    if (!files) {
      const versions = { rulesVersion, classificationVersion: 0, settingsVersion: 0 }
      const priced = priceWithTables(bill, { rules: rulesNow, classification: [], versions })
      const written = await renderFiles(bill, ['json', 'part'], undefined, priced)
      const { json, part } = written.files
      if (!json || !part) throw new Error('The bench’s bill was not written.')
      files = { json, part }
      pricedFiles.set(bill, files)
    }
    return files
  }
  const bills = await openEmbeddedBillStore({ dataDir })
  const fake = createFakeCloud()

  async function finishedJob(
    fileName: string,
    storageId: string,
    bill: Boq,
    place = { projectId: PROJECT, folderId: FOLDER },
  ): Promise<string> {
    const { json, part } = await extracted(bill)
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
      {
        xlsx: new Uint8Array(1),
        csv: new Uint8Array(1),
        json,
        // An older BOQ kept no part with a job.
        ...(place.projectId === OLDER ? {} : { part }),
      },
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
  // What one process keeps between requests.
  let kept = keptPricings()

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
        kept,
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
  await drawingsIn({ projectId: OLDER, folderId: OLDER_FOLDER }, 'E')
  const billUrl = await makeBill(PROJECT, FOLDER)
  const olderBillUrl = await makeBill(OLDER, OLDER_FOLDER)

  return {
    billUrl,
    olderBillUrl,
    listUrl: billsOf(PROJECT),
    saveRules,
    /** Routes of their own, as another process's: nothing kept in memory. */
    async restart(): Promise<void> {
      kept = keptPricings()
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
      await pool.close()
      await bills.close()
      await store.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
