import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { openEmbeddedJobStore } from '../../jobs/embedded-store.ts'
import { openPostgresJobStore } from '../../jobs/pg/postgres-store.ts'
import type { JobChange, JobStore } from '../../jobs/types.ts'
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
  remove(): Promise<void>
}

export async function embeddedPlace(): Promise<StorePlace> {
  const dataDir = await mkdtemp(join(tmpdir(), 'boq-store-contract-'))
  return {
    open: (options = {}) =>
      openEmbeddedJobStore({ dataDir, tokenKey: TEST_TOKEN_KEY, log: () => {}, ...options }),
    shared: false,
    remove: () => rm(dataDir, { recursive: true, force: true }),
  }
}

export async function postgresPlace(): Promise<StorePlace> {
  const database = await createTestDatabase()
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
