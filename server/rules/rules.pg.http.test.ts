import { randomBytes } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXAMPLE_SAVED_BY } from '../seed/example-tables.ts'
import type { TestClient } from '../testing/client.ts'
import { findDrawing, makeSeedDir } from '../testing/jobs/drawings.ts'
import { startSeveralUsersServer } from '../testing/jobs/several-users.ts'
import { createTestDatabase, type TestDatabase } from '../testing/postgres.ts'
import type { TestServer } from '../testing/start-test-server.ts'

// Two web processes (real servers on loopback) over one PostgreSQL: a project's rules saved
// through one are read through the other, and a save of a stale version through either is refused.
// Both seed a demo cloud of their own with the featured drawing, so the project starts with the
// example rules.

let database: TestDatabase
let seedDir: string
const servers: TestServer[] = []
let ann: TestClient
let bob: TestClient
let paths: [string, string]

const rule = (code: string) => ({ match: 'count', block: '*', code, rate: 1 })

function save(client: TestClient, path: string, code: string, version: number) {
  return client(path, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'if-match': String(version) },
    body: JSON.stringify({ rules: [rule(code)] }),
  })
}

beforeAll(async () => {
  database = await createTestDatabase()
  seedDir = await makeSeedDir(['example_2018.dwg'])
  // Processes sharing a database share the session secret, as in production.
  const env = {
    BOQ_DATABASE_URL: database.url,
    BOQ_ROLE: 'web',
    SESSION_SECRET: randomBytes(32).toString('hex'),
  }
  const one = await startSeveralUsersServer('boq-rules-pg-a-', seedDir, env)
  const two = await startSeveralUsersServer('boq-rules-pg-b-', seedDir, env)
  servers.push(one.server, two.server)
  ann = await one.signInAs(one.server.url, 'Ann')
  bob = await two.signInAs(two.server.url, 'Bob')
  const [a, b] = await Promise.all([
    findDrawing(ann.json, 'example_2018.dwg'),
    findDrawing(bob.json, 'example_2018.dwg'),
  ])
  expect(a.projectId).toBe(b.projectId)
  const path = `/api/boq/projects/${encodeURIComponent(a.projectId)}/rules`
  paths = [path, path]
}, 60_000)

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()))
  await Promise.all(servers.map((s) => rm(s.dataDir, { recursive: true, force: true })))
  await rm(seedDir, { recursive: true, force: true })
  await database?.drop()
})

describe('a project’s rules on PostgreSQL, through two processes', () => {
  it('has the example rules once, though both processes seeded their demo cloud', async () => {
    expect(await ann.json(`${paths[0]}/history`)).toEqual([
      expect.objectContaining({ version: 1, savedBy: EXAMPLE_SAVED_BY }),
    ])
    expect(await bob.json(paths[1])).toMatchObject({ version: 1, savedBy: EXAMPLE_SAVED_BY })
  })

  it('shows a save made through one process in the other, and refuses a stale save there', async () => {
    const saved = await save(ann, paths[0], 'A', 1)
    expect(saved.status).toBe(200)
    expect(await bob.json(paths[1])).toMatchObject({
      version: 2,
      savedBy: 'Ann',
      rules: [rule('A')],
    })

    const stale = await save(bob, paths[1], 'B', 1)
    expect(stale.status).toBe(412)
    expect(await stale.text()).toMatch(/^Saved by Ann at \d\d:\d\d UTC since you opened it/)
    expect((await save(bob, paths[1], 'B', 2)).status).toBe(200)
    expect(await ann.json(`${paths[0]}/history`)).toEqual([
      expect.objectContaining({ version: 3, savedBy: 'Bob', rows: 1 }),
      expect.objectContaining({ version: 2, savedBy: 'Ann', rows: 1 }),
      expect.objectContaining({ version: 1, savedBy: EXAMPLE_SAVED_BY }),
    ])
  })

  it('lets one of two saves of the same version win, sent to both processes at once', async () => {
    const current = (await ann.json<{ version: number }>(paths[0])).version
    const answers = await Promise.all([
      save(ann, paths[0], 'X', current),
      save(bob, paths[1], 'Y', current),
    ])
    expect(answers.map((a) => a.status).sort()).toEqual([200, 412])
    await Promise.all(answers.map((a) => a.body?.cancel()))
    expect(await bob.json(paths[1])).toMatchObject({ version: current + 1 })
  })
})
