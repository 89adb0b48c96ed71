import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { type Postgres, startPostgres } from '../../scripts/postgres.ts'

export type { Postgres } from '../../scripts/postgres.ts'

export const TEST_DATABASE_MISSING =
  'BOQ_TEST_DATABASE_URL is not set, and no PostgreSQL was started for the tests: install ' +
  "PostgreSQL's server programs (`apt-get install -y postgresql`; the test run then starts a " +
  'throwaway server itself), or set BOQ_TEST_DATABASE_URL to a server the tests may create ' +
  'databases on, e.g. postgres://postgres@127.0.0.1:5432/postgres.'

export interface TestDatabase {
  /** The new database's URL: the server's, with the database's name. */
  url: string
  /** Ends the database's open connections and drops it. */
  drop(): Promise<void>
}

/** The server the tests use (set by the test run's global setup when it started one itself). */
export function testServerUrl(): string {
  const url = process.env.BOQ_TEST_DATABASE_URL
  if (!url) throw new Error(TEST_DATABASE_MISSING)
  return url
}

/** Runs `sql` on the test server's own database, over a connection of its own. */
async function onServer(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

/** A new, empty database with a name of its own on the server at BOQ_TEST_DATABASE_URL. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = testServerUrl()
  const name = `boq_test_${randomUUID().replaceAll('-', '')}`
  await onServer(serverUrl, `CREATE DATABASE ${name}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    url: url.href,
    drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  }
}

/**
 * A PostgreSQL server of the test's own, in a fresh temporary folder, for a test that stops and
 * starts the database itself. The test closes it (afterAll), which also removes the folder.
 */
export async function startPrivatePostgres(): Promise<Postgres> {
  const dir = await mkdtemp(join(tmpdir(), 'boq-postgres-'))
  try {
    return await startPostgres({ dir, throwaway: true })
  } catch (error) {
    await rm(dir, { recursive: true, force: true })
    throw error
  }
}

/**
 * The two stores a server can keep its jobs, rules and bills in, for `describe.each`: each gives
 * the environment that starts a server on it and what drops it afterwards (a database of its own
 * on PostgreSQL; nothing for the embedded store, whose data folder the test server removes).
 */
export const SERVER_STORES = [
  ['embedded', async () => ({ env: {}, drop: async () => {} })],
  [
    'PostgreSQL',
    async () => {
      const database: TestDatabase = await createTestDatabase()
      return {
        env: { BOQ_DATABASE_URL: database.url, SESSION_SECRET: randomBytes(32).toString('hex') },
        drop: () => database.drop(),
      }
    },
  ],
] as const
