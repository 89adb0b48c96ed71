import { createHash } from 'node:crypto'
import { mkdtemp, rm, truncate } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterEach } from 'vitest'
import { openPostgresJobStore } from '../../jobs/pg/postgres-store.ts'
import { openEmbeddedRulesStore } from '../../rules/store/embedded-store.ts'
import { openPostgresRulesStore } from '../../rules/store/pg/postgres-store.ts'
import type { RulesKind, RulesStore } from '../../rules/store/types.ts'
import { TEST_TOKEN_KEY } from '../jobs/fakes.ts'
import { createTestDatabase } from '../postgres.ts'

/** A place a rules store keeps the projects' tables: a data folder, or a database of its own. */
export interface RulesStorePlace {
  open(options?: { log?: (message: string) => void }): Promise<RulesStore>
  /** Several stores may be open on it at once, as several processes (PostgreSQL). */
  shared: boolean
  /** Damages what is kept there, as a disk or a hand might. */
  damage: {
    /** That saved version of a project's table made unreadable. */
    rulesVersion(projectId: string, kind: RulesKind, version: number): Promise<void>
  }
  remove(): Promise<void>
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

export async function embeddedRulesPlace(): Promise<RulesStorePlace> {
  const dataDir = await mkdtemp(join(tmpdir(), 'boq-rules-store-'))
  return {
    open: async (options = {}) => openEmbeddedRulesStore({ dataDir, log: () => {}, ...options }),
    shared: false,
    damage: {
      rulesVersion: (projectId, kind, version) =>
        truncate(
          join(dataDir, 'rules', sha256(projectId).slice(0, 32), kind, `${version}.json`),
          20,
        ),
    },
    remove: () => rm(dataDir, { recursive: true, force: true }),
  }
}

/**
 * A database of the test's own. Each store opened is a process's: the rules store on the pool of
 * a PostgreSQL job store of its own (which applies the migrations), as the server opens them.
 */
export async function postgresRulesPlace(): Promise<RulesStorePlace> {
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
    async open(options = {}) {
      const log = options.log ?? (() => {})
      const jobs = await openPostgresJobStore({
        url: database.url,
        tokenKey: TEST_TOKEN_KEY,
        recoverySeconds: 15,
        retentionDays: 90,
        log,
      })
      const rules = openPostgresRulesStore({ db: jobs.db, log })
      return {
        ...rules,
        async close() {
          await rules.close()
          await jobs.close()
        },
      }
    },
    shared: true,
    damage: {
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

/** Both rules stores, for `describe.each`. */
export const RULES_STORE_PLACES = [
  ['embedded', embeddedRulesPlace],
  ['PostgreSQL', postgresRulesPlace],
] as const

/**
 * The rules stores a test opens on one place of `makePlace`'s, made at the first open: after
 * each test they are closed and the place removed.
 */
export function rulesStoresIn(makePlace: () => Promise<RulesStorePlace>) {
  let place: RulesStorePlace | undefined
  const open: RulesStore[] = []

  afterEach(async () => {
    await Promise.all(open.splice(0).map((store) => store.close()))
    await place?.remove()
    place = undefined
  })

  async function placeOf(): Promise<RulesStorePlace> {
    place ??= await makePlace()
    return place
  }

  return {
    placeOf,
    async openStore(options?: Parameters<RulesStorePlace['open']>[0]): Promise<RulesStore> {
      const store = await (await placeOf()).open(options)
      open.push(store)
      return store
    },
  }
}
