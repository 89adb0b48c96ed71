import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClassificationDocumentSchema, RulesDocumentSchema } from '#contract/takeoff-rules-api.ts'
import { signIn, type TestClient } from '../testing/client.ts'
import { findDrawing } from '../testing/jobs/drawings.ts'
import { startTestServer, type TestServer } from '../testing/start-test-server.ts'
import { EXAMPLE_SAVED_BY, type ExampleTables, readExampleTables } from './example-tables.ts'
import { FEATURED_DRAWING } from './seed.ts'

// The real server over loopback on a fresh data folder with the default seed: the demo project
// that holds the featured drawing has the example rules and classification from its first start.

let dataDir: string
let tables: ExampleTables

/** A server started on `dir` with the default seed, signed in to, and closed after `fn`. */
async function withServer(
  fn: (client: TestClient) => Promise<void>,
  options: { dir?: string; env?: Record<string, string> } = {},
): Promise<void> {
  const server: TestServer = await startTestServer({
    dataDir: options.dir ?? dataDir,
    seed: true,
    env: options.env,
  })
  try {
    await fn(await signIn(server.url))
  } finally {
    await server.close()
  }
}

/** The rules and classification paths of the project holding the featured drawing. */
async function paths(client: TestClient) {
  const { projectId } = await findDrawing(client.json, FEATURED_DRAWING)
  const project = `/api/boq/projects/${encodeURIComponent(projectId)}`
  return { rules: `${project}/rules`, classification: `${project}/classification` }
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'boq-example-http-'))
  tables = await readExampleTables()
})

afterAll(() => rm(dataDir, { recursive: true, force: true }))

describe('the demo project’s example rules', () => {
  it('are version 1, saved by the example, on the first start', async () => {
    await withServer(async (client) => {
      const path = await paths(client)
      const rules = v.parse(RulesDocumentSchema, await client.json(path.rules))
      expect(rules).toMatchObject({ version: 1, savedBy: EXAMPLE_SAVED_BY, rules: tables.rules })
      const classification = v.parse(
        ClassificationDocumentSchema,
        await client.json(path.classification),
      )
      expect(classification).toMatchObject({
        version: 1,
        savedBy: EXAMPLE_SAVED_BY,
        entries: tables.classification,
      })
      expect(rules.rules.length).toBeGreaterThan(0)
    })
  })

  it('are not saved again when the server starts again on the same data folder', async () => {
    await withServer(async (client) => {
      const path = await paths(client)
      expect(await client.json(`${path.rules}/history`)).toEqual([
        expect.objectContaining({ version: 1, savedBy: EXAMPLE_SAVED_BY }),
      ])
      expect(await client.json(`${path.classification}/history`)).toEqual([
        expect.objectContaining({ version: 1, savedBy: EXAMPLE_SAVED_BY }),
      ])
    })
  })

  it('are not saved for a demo cloud seeded without drawings', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'boq-example-http-empty-'))
    await withServer(
      async (client) => {
        const hubs = await client.json<{ id: string }[]>('/api/aps/hubs')
        const hub = `/api/aps/hubs/${encodeURIComponent(hubs[0]?.id ?? '')}`
        const projects = await client.json<{ id: string }[]>(`${hub}/projects`)
        expect(projects).toHaveLength(2)
        for (const project of projects) {
          const path = `/api/boq/projects/${encodeURIComponent(project.id)}`
          expect(await client.json(`${path}/rules`)).toMatchObject({ version: 0, rules: [] })
          expect(await client.json(`${path}/classification`)).toMatchObject({ version: 0 })
        }
      },
      { dir: empty, env: { BOQ_SEED_DIR: '' } },
    )
    await rm(empty, { recursive: true, force: true })
  })
})
