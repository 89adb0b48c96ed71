import pg from 'pg'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openPostgresJobStore, type PostgresJobStore } from '../../../jobs/pg/postgres-store.ts'
import { TEST_TOKEN_KEY } from '../../../testing/jobs/fakes.ts'
import { createTestDatabase, type TestDatabase } from '../../../testing/postgres.ts'
import { openPostgresRulesStore } from './postgres-store.ts'

let database: TestDatabase
let jobs: PostgresJobStore | undefined

beforeEach(async () => {
  database = await createTestDatabase()
})

afterEach(async () => {
  await jobs?.close()
  jobs = undefined
  await database.drop()
})

/** A rules store on the pool of a job store of its own, which applies the migrations. */
async function openStore(log: (message: string) => void) {
  jobs = await openPostgresJobStore({
    url: database.url,
    tokenKey: TEST_TOKEN_KEY,
    recoverySeconds: 15,
    retentionDays: 90,
    log,
  })
  return openPostgresRulesStore({ db: jobs.db, log })
}

async function sql(text: string, values: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: database.url })
  await client.connect()
  try {
    await client.query(text, values)
  } finally {
    await client.end()
  }
}

describe('rows the PostgreSQL rules store reads', () => {
  it('skips a saved rules version whose rows are not rules, naming it', async () => {
    const warnings: string[] = []
    const store = await openStore((message) => warnings.push(message))
    await store.saveRules('p1', 'classification', 0, [], 'Ann')
    await sql(`UPDATE boq_rules SET rows = '[{"code": 3}]'`)
    expect(await store.rules('p1', 'classification')).toBeUndefined()
    expect(await store.rulesHistory('p1', 'classification')).toEqual([])
    expect(warnings).toContainEqual(
      expect.stringContaining('the unreadable saved classification version 1 of project p1'),
    )
  })
})
