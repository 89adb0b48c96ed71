import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Job } from '#contract/jobs.ts'
import type { SeedIds } from '../../dev/fake-aps/seed.ts'
import { signInThroughFake, startApsProduct } from '../testing/aps-product.ts'
import { FIXTURES as fixturesDir } from '../testing/boq/fixtures.ts'
import type { TestClient } from '../testing/client.ts'
import { postExtract, waitForJob } from '../testing/jobs/jobs-api.ts'

// In Autodesk mode (the real server against the fake Autodesk, the real engine), what a job can
// say about the version it reads and the folder it writes into.

let product: Awaited<ReturnType<typeof startApsProduct>>
let ids: SeedIds
let client: TestClient

beforeAll(async () => {
  product = await startApsProduct({ BOQ_WORKERS: '1' })
  ids = product.fake.ids as SeedIds
  client = await signInThroughFake(product.server.url)
}, 60_000)
afterAll(() => product?.close())

interface Version {
  attributes: { versionNumber: number }
  relationships: { storage: { data: { id: string } } }
}

/** The item's versions, as the app lists them, newest first. */
async function versionsOf(itemId: string): Promise<Version[]> {
  const base = `/api/aps/hubs/${encodeURIComponent(ids.hubId)}/projects/${encodeURIComponent(ids.projectId)}`
  const list = await client.json<{ data: Version[] } | Version[]>(
    `${base}/contents/${encodeURIComponent(itemId)}/versions`,
  )
  return Array.isArray(list) ? list : list.data
}

describe('a job in Autodesk mode', () => {
  it('learns the version number at submit time, and knows the hub of a deeper folder', async () => {
    const versions = await versionsOf(ids.exampleItemId)
    const first = versions.find((v) => v.attributes.versionNumber === 1) as Version
    const response = await postExtract(client, {
      fileName: 'example.dwg',
      fileStorageId: first.relationships.storage.data.id,
      fileFolderId: ids.drawingsId,
      projectId: ids.projectId,
    })
    expect(response.status).toBe(202)
    const queued = (await response.json()) as Job
    // Not in an Autodesk storage id: found with the version's own name. Drawings is below a top folder.
    expect(queued).toMatchObject({
      fileVersionNumber: 1,
      folder: { name: null, hubId: ids.hubId, path: null },
    })
    const done = await waitForJob(client, queued.id)
    expect(done).toMatchObject({ status: 'succeeded', fileVersionNumber: 1 })
  })

  it("refuses a fileName that is not the version's own, without writing anything", async () => {
    const [tip] = await versionsOf(ids.exampleItemId)
    const body = {
      fileStorageId: tip?.relationships.storage.data.id,
      fileFolderId: ids.drawingsId,
      projectId: ids.projectId,
    }
    const itemsBefore = product.fake.state.items.size
    for (const fileName of ['other.dwg', 'sample.dwg']) {
      const response = await postExtract(client, { ...body, fileName })
      expect(response.status).toBe(400)
      expect(await response.text()).toBe(
        `fileName must be the version's own name; no drawing named ${fileName} in this folder has this version.`,
      )
    }
    // The version's own name, under an item renamed since: named, and refused.
    const bytes = new Uint8Array(await readFile(join(fixturesDir, 'sample_2018.dwg')))
    const renamed = product.fake.state.addItem(ids.drawingsId, 'renamed.dwg', [])
    const old = product.fake.state.addVersion(
      renamed,
      product.fake.state.storeObject('old.dwg', bytes),
      'old.dwg',
    )
    const response = await postExtract(client, {
      ...body,
      fileStorageId: old.storageId,
      fileName: 'renamed.dwg',
    })
    expect(response.status).toBe(400)
    expect(await response.text()).toBe(
      "fileName must be the version's own name, old.dwg; got renamed.dwg.",
    )
    expect(product.fake.state.items.size).toBe(itemsBefore + 1)
  })

  it('names a top folder and gives its chain at once', async () => {
    const bytes = new Uint8Array(await readFile(join(fixturesDir, 'sample_2018.dwg')))
    const item = product.fake.state.addItem(ids.projectFilesId, 'top.dwg', [bytes])
    const [version] = await versionsOf(item.id)
    const response = await postExtract(client, {
      fileName: 'top.dwg',
      fileStorageId: version?.relationships.storage.data.id,
      fileFolderId: ids.projectFilesId,
      projectId: ids.projectId,
    })
    expect(response.status, await response.clone().text()).toBe(202)
    const queued = (await response.json()) as Job
    expect(queued.folder).toEqual({
      name: 'Project Files',
      hubId: ids.hubId,
      path: [ids.projectFilesId],
    })
    const done = await waitForJob(client, queued.id)
    expect(done).toMatchObject({
      status: 'succeeded',
      fileVersionNumber: 1,
      result: { fileName: 'top BOQ.xlsx', versionNumber: 1 },
    })
  })
})
