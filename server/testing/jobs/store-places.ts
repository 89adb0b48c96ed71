import { createHash } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterEach } from 'vitest'
import { openEmbeddedJobStore } from '../../jobs/embedded-store.ts'
import { openPostgresJobStore } from '../../jobs/pg/postgres-store.ts'
import type { JobChange, JobStore, RulesKind } from '../../jobs/types.ts'
import { createTestDatabase } from '../postgres.ts'
import { TEST_TOKEN_KEY } from './fakes.ts'

/** A place a store keeps its jobs: a data folder, or a database of the test's own. */
export interface StorePlace {
  open(options?: {
    tokenKey?: Uint8Array
    onChange?: (c: JobChange) => void
    log?: (message: string) => void
  }): Promise<JobStore>
  /** Several stores may be open on it at once, as several processes (PostgreSQL). */
  shared: boolean
  /** Everything kept there, as text: what someone reading the files or the tables would see. */
  rawText(): Promise<string>
  /** Damages what is kept there, as a disk or a hand might (a store reads it at its next open). */
  damage: {
    /** The person's sealed standing grant cut to 20 characters. */
    grant(userId: string): Promise<void>
    /** The watch's record left without its state. */
    watchRecord(watchId: string): Promise<void>
    /** That saved version of a project's table made unreadable. */
    rulesVersion(projectId: string, kind: RulesKind, version: number): Promise<void>
  }
  remove(): Promise<void>
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

export async function embeddedPlace(): Promise<StorePlace> {
  const dataDir = await mkdtemp(join(tmpdir(), 'boq-store-contract-'))
  return {
    open: (options = {}) =>
      openEmbeddedJobStore({ dataDir, tokenKey: TEST_TOKEN_KEY, log: () => {}, ...options }),
    shared: false,
    async rawText() {
      const names = await readdir(dataDir, { recursive: true, withFileTypes: true })
      const files = names.filter((entry) => entry.isFile())
      const texts = await Promise.all(
        files.map((file) => readFile(join(file.parentPath, file.name), 'utf8')),
      )
      return texts.join('\n')
    },
    damage: {
      grant: (userId) => truncate(join(dataDir, 'watches', 'grants', sha256(userId)), 20),
      async watchRecord(watchId) {
        const file = join(dataDir, 'watches', watchId, 'watch.json')
        const { state: _state, ...rest } = JSON.parse(await readFile(file, 'utf8'))
        await writeFile(file, JSON.stringify(rest))
      },
      rulesVersion: (projectId, kind, version) =>
        truncate(
          join(dataDir, 'rules', sha256(projectId).slice(0, 32), kind, `${version}.json`),
          20,
        ),
    },
    remove: () => rm(dataDir, { recursive: true, force: true }),
  }
}

export async function postgresPlace(): Promise<StorePlace> {
  const database = await createTestDatabase()
  async function sql(text: string, values: unknown[]): Promise<void> {
    const client = new pg.Client({ connectionString: database.url })
    await client.connect()
    try {
      await client.query(text, values)
    } finally {
      await client.end()
    }
  }
  return {
    open: (options = {}) =>
      openPostgresJobStore({
        url: database.url,
        tokenKey: TEST_TOKEN_KEY,
        recoverySeconds: 15,
        retentionDays: 90,
        log: () => {},
        ...options,
      }),
    shared: true,
    async rawText() {
      const client = new pg.Client({ connectionString: database.url })
      await client.connect()
      try {
        const tables = await client.query<{ name: string }>(
          `SELECT table_name AS name FROM information_schema.tables
           WHERE table_schema = 'public' AND table_name LIKE 'boq_%'`,
        )
        const texts: string[] = []
        for (const { name } of tables.rows) {
          const rows = await client.query<{ row: string }>(`SELECT t::text AS row FROM ${name} t`)
          texts.push(...rows.rows.map((r) => r.row))
        }
        return texts.join('\n')
      } finally {
        await client.end()
      }
    },
    damage: {
      grant: (userId) =>
        sql('UPDATE boq_standing_grants SET sealed = left(sealed, 20) WHERE user_id = $1', [
          userId,
        ]),
      watchRecord: (watchId) =>
        sql(`UPDATE boq_watches SET record = record - 'state' WHERE id = $1`, [watchId]),
      rulesVersion: (projectId, kind, version) =>
        sql(
          `UPDATE boq_rules SET rows = '"cut short"'::jsonb
            WHERE project_id = $1 AND kind = $2 AND version = $3`,
          [projectId, kind, version],
        ),
    },
    remove: () => database.drop(),
  }
}

/** Both stores, for `describe.each`. */
export const STORE_PLACES = [
  ['embedded', embeddedPlace],
  ['PostgreSQL', postgresPlace],
] as const

/**
 * The stores a test opens on one place of `makePlace`'s, made at the first open: after each test
 * they are closed and the place removed.
 */
export function storesIn(makePlace: () => Promise<StorePlace>) {
  let place: StorePlace | undefined
  const open: JobStore[] = []

  afterEach(async () => {
    await Promise.all(open.splice(0).map((store) => store.close()))
    await place?.remove()
    place = undefined
  })

  async function placeOf(): Promise<StorePlace> {
    place ??= await makePlace()
    return place
  }

  return {
    placeOf,
    async openStore(options?: Parameters<StorePlace['open']>[0]): Promise<JobStore> {
      const store = await (await placeOf()).open(options)
      open.push(store)
      return store
    },
    /** Closes a store before the test ends (to open its place again). */
    async closeStore(store: JobStore): Promise<void> {
      open.splice(open.indexOf(store), 1)
      await store.close()
    },
  }
}
