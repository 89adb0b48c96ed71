import { createHash } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterEach } from 'vitest'
import { openPostgresJobStore } from '../../jobs/pg/postgres-store.ts'
import { openEmbeddedWatchStore } from '../../watches/store/embedded-store.ts'
import { openPostgresWatchStore } from '../../watches/store/pg/postgres-store.ts'
import type { WatchStore } from '../../watches/store/types.ts'
import { TEST_TOKEN_KEY } from '../jobs/fakes.ts'
import { createTestDatabase } from '../postgres.ts'

/** A place a watch store keeps its watches: a data folder, or a database of the test's own. */
export interface WatchStorePlace {
  open(options?: { tokenKey?: Uint8Array; log?: (message: string) => void }): Promise<WatchStore>
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
  }
  remove(): Promise<void>
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

export async function embeddedWatchPlace(): Promise<WatchStorePlace> {
  const dataDir = await mkdtemp(join(tmpdir(), 'boq-watch-store-'))
  return {
    open: (options = {}) =>
      openEmbeddedWatchStore({ dataDir, tokenKey: TEST_TOKEN_KEY, log: () => {}, ...options }),
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
    },
    remove: () => rm(dataDir, { recursive: true, force: true }),
  }
}

/**
 * A database of the test's own. Each store opened is a process's: the watch store on the pool of
 * a PostgreSQL job store of its own (which applies the migrations), as the server opens them.
 */
export async function postgresWatchPlace(): Promise<WatchStorePlace & { url: string }> {
  const database = await createTestDatabase()
  async function withClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: database.url })
    await client.connect()
    try {
      return await work(client)
    } finally {
      await client.end()
    }
  }
  const sql = (text: string, values: unknown[]) =>
    withClient(async (client) => {
      await client.query(text, values)
    })
  return {
    url: database.url,
    async open(options = {}) {
      const tokenKey = options.tokenKey ?? TEST_TOKEN_KEY
      const log = options.log ?? (() => {})
      const jobs = await openPostgresJobStore({
        url: database.url,
        tokenKey,
        recoverySeconds: 15,
        retentionDays: 90,
        log,
      })
      const watches = openPostgresWatchStore({ db: jobs.db, tokenKey, log })
      return {
        ...watches,
        async close() {
          await watches.close()
          await jobs.close()
        },
      }
    },
    shared: true,
    rawText: () =>
      withClient(async (client) => {
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
      }),
    damage: {
      grant: (userId) =>
        sql('UPDATE boq_standing_grants SET sealed = left(sealed, 20) WHERE user_id = $1', [
          userId,
        ]),
      watchRecord: (watchId) =>
        sql(`UPDATE boq_watches SET record = record - 'state' WHERE id = $1`, [watchId]),
    },
    remove: () => database.drop(),
  }
}

/** Both watch stores, for `describe.each`. */
export const WATCH_STORE_PLACES = [
  ['embedded', embeddedWatchPlace],
  ['PostgreSQL', postgresWatchPlace],
] as const

/**
 * The watch stores a test opens on one place of `makePlace`'s, made at the first open: after
 * each test they are closed and the place removed.
 */
export function watchStoresIn(makePlace: () => Promise<WatchStorePlace>) {
  let place: WatchStorePlace | undefined
  const open: WatchStore[] = []

  afterEach(async () => {
    await Promise.all(open.splice(0).map((store) => store.close()))
    await place?.remove()
    place = undefined
  })

  async function placeOf(): Promise<WatchStorePlace> {
    place ??= await makePlace()
    return place
  }

  return {
    placeOf,
    async openStore(options?: Parameters<WatchStorePlace['open']>[0]): Promise<WatchStore> {
      const store = await (await placeOf()).open(options)
      open.push(store)
      return store
    },
    /** Closes a store before the test ends (to open its place again). */
    async closeStore(store: WatchStore): Promise<void> {
      open.splice(open.indexOf(store), 1)
      await store.close()
    },
  }
}
