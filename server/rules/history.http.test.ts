import { rm } from 'node:fs/promises'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClassificationDocumentSchema, RulesDocumentSchema } from '#contract/takeoff-rules-api.ts'
import { EXAMPLE_SAVED_BY, type ExampleTables, readExampleTables } from '../seed/example-tables.ts'
import { createClient, type TestClient } from '../testing/client.ts'
import { findDrawing, makeSeedDir } from '../testing/jobs/drawings.ts'
import { startSeveralUsersServer } from '../testing/jobs/several-users.ts'
import { SERVER_STORES } from '../testing/postgres.ts'
import type { TestServer } from '../testing/start-test-server.ts'

// The real server over loopback, on either store: the demo project starts with the example
// rules and classification (version 1 of each); a saved version is read by its number, and
// restored as the app does it, by a PUT of its rows as the next version.

const rule = (code: string) => ({ match: 'count', block: '*', code, rate: 1 })

describe.each(SERVER_STORES)('saved versions over HTTP: %s store', (_name, makeStore) => {
  let server: TestServer
  let seedDir: string
  let drop: () => Promise<void>
  let ann: TestClient
  let bob: TestClient
  let example: ExampleTables
  let base: string

  beforeAll(async () => {
    const store = await makeStore()
    drop = store.drop
    example = await readExampleTables()
    seedDir = await makeSeedDir(['example_2018.dwg'])
    const started = await startSeveralUsersServer('boq-rules-history-', seedDir, store.env)
    server = started.server
    ann = await started.signInAs(server.url, 'Ann')
    bob = await started.signInAs(server.url, 'Bob')
    const drawing = await findDrawing(ann.json, 'example_2018.dwg')
    base = `/api/boq/projects/${encodeURIComponent(drawing.projectId)}`
  }, 60_000)

  afterAll(async () => {
    await server?.close()
    await rm(server?.dataDir ?? '', { recursive: true, force: true })
    await rm(seedDir, { recursive: true, force: true })
    await drop?.()
  })

  const put = (client: TestClient, path: string, body: unknown, ifMatch: string) =>
    client(path, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'if-match': ifMatch },
      body: JSON.stringify(body),
    })

  async function expectText(response: Response, status: number, text: RegExp) {
    const body = await response.text()
    expect({ status: response.status, body }).toEqual({ status, body: expect.stringMatching(text) })
  }

  it('opens each saved version of the rules read-only, to anyone who sees the project', async () => {
    expect((await put(ann, `${base}/rules`, { rules: [rule('B')] }, '1')).status).toBe(200)

    const first = await bob(`${base}/rules/history/1`)
    expect(first.status).toBe(200)
    expect(first.headers.get('cache-control')).toBe('no-store')
    expect(v.parse(RulesDocumentSchema, await first.json())).toEqual({
      version: 1,
      savedBy: EXAMPLE_SAVED_BY,
      savedAt: expect.any(String),
      rules: example.rules,
    })
    expect(await ann.json(`${base}/rules/history/2`)).toMatchObject({
      version: 2,
      savedBy: 'Ann',
      rules: [rule('B')],
    })
    // Opening one changes nothing.
    expect(await ann.json(`${base}/rules`)).toMatchObject({ version: 2 })
  })

  it('answers 404 for a version never saved, a number that is not one, or a project not seen', async () => {
    for (const version of ['3', '0', '-1', '1.5', 'one', '99999999999', '1e3']) {
      await expectText(await ann(`${base}/rules/history/${version}`), 404, /no such version/)
    }
    await expectText(await ann(`${base}/classification/history/2`), 404, /no such version/)
    const unseen = '/api/boq/projects/b.not-a-project'
    await expectText(await ann(`${unseen}/rules/history/1`), 404, /no such project/)
    await expectText(await ann(`${unseen}/classification/history/1`), 404, /no such project/)
    expect((await createClient(server.url)(`${base}/rules/history/1`)).status).toBe(401)
  })

  it('restores a version as the app does: its rows saved as the next version', async () => {
    const current = v.parse(RulesDocumentSchema, await ann.json(`${base}/rules`))
    const old = v.parse(RulesDocumentSchema, await ann.json(`${base}/rules/history/1`))
    const restored = await put(ann, `${base}/rules`, { rules: old.rules }, `"${current.version}"`)
    expect(restored.status).toBe(200)
    expect(restored.headers.get('etag')).toBe(`"${current.version + 1}"`)
    expect(await ann.json(`${base}/rules`)).toMatchObject({
      version: current.version + 1,
      savedBy: 'Ann',
      rules: example.rules,
    })
    const history = await ann.json<{ version: number }[]>(`${base}/rules/history`)
    expect(history.map((saved) => saved.version)).toEqual([3, 2, 1])
    // The version restored from stays as it was.
    expect(await ann.json(`${base}/rules/history/2`)).toMatchObject({ rules: [rule('B')] })
  })

  it('opens and restores the classification the same way', async () => {
    const entries = [{ code: 'A', title: 'Doors' }]
    expect((await put(bob, `${base}/classification`, { entries }, '1')).status).toBe(200)
    const old = v.parse(
      ClassificationDocumentSchema,
      await bob.json(`${base}/classification/history/1`),
    )
    expect(old).toMatchObject({ version: 1, entries: example.classification })
    expect((await put(bob, `${base}/classification`, { entries: old.entries }, '2')).status).toBe(
      200,
    )
    expect(await ann.json(`${base}/classification`)).toMatchObject({
      version: 3,
      savedBy: 'Bob',
      entries: example.classification,
    })
    expect(await ann.json(`${base}/classification/history/2`)).toMatchObject({ entries })
  })
})
