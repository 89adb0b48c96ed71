import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { longWorkbook, rowXml } from '../testing/boq/price/long-workbook.ts'
import type { TestClient } from '../testing/client.ts'
import { findDrawing, makeSeedDir } from '../testing/jobs/drawings.ts'
import { startSeveralUsersServer } from '../testing/jobs/several-users.ts'
import type { TestServer } from '../testing/start-test-server.ts'

// The real server over loopback: Ann sends a workbook of ten million rows as her project's rules
// while Bob, in another session, goes on reading his.

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

let server: TestServer
let seedDir: string
let ann: TestClient
let bob: TestClient
let project: string

beforeAll(async () => {
  seedDir = await makeSeedDir(['2018_Dynblocks.dwg'])
  const started = await startSeveralUsersServer('boq-rules-import-', seedDir)
  server = started.server
  ann = await started.signInAs(server.url, 'Ann')
  bob = await started.signInAs(server.url, 'Bob')
  project = encodeURIComponent((await findDrawing(ann.json, '2018_Dynblocks.dwg')).projectId)
}, 60_000)

afterAll(async () => {
  await server?.close()
  await rm(server?.dataDir ?? '', { recursive: true, force: true })
  await rm(seedDir, { recursive: true, force: true })
})

describe('a workbook of ten million rows sent as a table', () => {
  it('is refused at the first row past a table’s last, while another session is answered', async () => {
    const attacks = {
      rules: await longWorkbook(10_000_000),
      classification: await longWorkbook(
        0,
        `${rowXml(1, ['code', 'title'])}${rowXml(2, ['A', 'Walls'])}${'<row/>'.repeat(10_000_000)}`,
      ),
    }
    for (const [kind, attack] of Object.entries(attacks)) {
      const path = `/api/boq/projects/${project}/${kind}`
      const rssBefore = process.memoryUsage.rss()
      let refused = false
      const sent = ann(path, {
        method: 'PUT',
        headers: { 'content-type': XLSX, 'if-match': '0' },
        body: attack as Uint8Array<ArrayBuffer>,
      }).then(async (response) => {
        refused = true
        return { status: response.status, body: await response.text() }
      })
      // Bob's table is read while Ann's workbook is still being read.
      const other = await bob(path)
      expect(other.status).toBe(200)
      await other.body?.cancel()
      const answeredWhilePending = !refused
      expect(await sent).toEqual({
        status: 400,
        body: 'The sheet goes on past row 10,001; at most 10,000 rows are read.',
      })
      expect(answeredWhilePending).toBe(true)
      // Nothing saved, and the server has not kept (nor needed) the sheet unpacked: 60 MB of XML
      // once took 2.6 GB. Generously under that.
      expect(await bob.json(path)).toMatchObject({ version: 0 })
      expect((process.memoryUsage.rss() - rssBefore) / 1024 / 1024).toBeLessThan(600)
    }
  }, 60_000)
})
