import { existsSync } from 'node:fs'
import pg from 'pg'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import {
  createTestDatabase,
  type Postgres,
  startPrivatePostgres,
  TEST_DATABASE_MISSING,
  type TestDatabase,
} from './postgres.ts'

/** Connects to `url`, runs `sql`, and disconnects: the rows. */
async function query(url: string, sql: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 })
  await client.connect()
  try {
    return (await client.query(sql)).rows
  } finally {
    await client.end()
  }
}

describe('createTestDatabase', () => {
  const made: TestDatabase[] = []
  afterAll(async () => {
    for (const database of made) await database.drop()
  })

  it('makes a new empty database of its own on the test server, which drop() removes', async () => {
    const first = await createTestDatabase()
    const second = await createTestDatabase()
    made.push(first, second)
    expect(first.url).not.toBe(second.url)

    await query(first.url, 'CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)')
    expect(await query(first.url, 'SELECT n FROM kept')).toEqual([{ n: 7 }])
    // The other database does not share the first one's tables.
    await expect(query(second.url, 'SELECT n FROM kept')).rejects.toMatchObject({ code: '42P01' })

    // A connection still open does not keep the database from being dropped.
    const open = new pg.Client({ connectionString: first.url })
    open.on('error', () => {})
    await open.connect()
    try {
      await first.drop()
    } finally {
      await open.end().catch(() => {})
    }
    // 3D000: the database does not exist.
    await expect(query(first.url, 'SELECT 1')).rejects.toMatchObject({ code: '3D000' })
    expect(await query(second.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }])
  })

  describe('without BOQ_TEST_DATABASE_URL', () => {
    afterEach(() => {
      vi.unstubAllEnvs()
    })

    it('fails with how to get a server, so the tests that need one fail instead of skipping', async () => {
      vi.stubEnv('BOQ_TEST_DATABASE_URL', undefined)
      await expect(createTestDatabase()).rejects.toThrow(TEST_DATABASE_MISSING)
      expect(TEST_DATABASE_MISSING).toContain('apt-get install -y postgresql')
    })
  })
})

describe('startPrivatePostgres', () => {
  let postgres: Postgres | undefined
  afterAll(async () => {
    await postgres?.close()
  })

  it('is a server of its own that the test stops and starts again on the same URL', async () => {
    postgres = await startPrivatePostgres()
    expect(postgres.url).not.toBe(process.env.BOQ_TEST_DATABASE_URL)
    await query(postgres.url, 'CREATE TABLE kept (n int); INSERT INTO kept VALUES (1)')

    await postgres.stop()
    await expect(query(postgres.url, 'SELECT 1')).rejects.toMatchObject({ code: 'ECONNREFUSED' })

    await postgres.start()
    // Its data outlived the outage.
    expect(await query(postgres.url, 'SELECT n FROM kept')).toEqual([{ n: 1 }])
  })

  it('close() stops the server and removes its folder', async () => {
    const own = await startPrivatePostgres()
    try {
      await own.close()
      await expect(query(own.url, 'SELECT 1')).rejects.toMatchObject({ code: 'ECONNREFUSED' })
      expect(existsSync(own.dir)).toBe(false)
    } finally {
      await own.close()
    }
  })
})
