import pg from 'pg'
import { PgBoss } from 'pg-boss'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { QueueDb } from '../../lib/pg/transaction.ts'
import { openPostgresRulesStore } from '../../rules/store/pg/postgres-store.ts'
import { newJobFor, TEST_TOKEN_KEY } from '../../testing/jobs/fakes.ts'
import { createTestDatabase, type TestDatabase } from '../../testing/postgres.ts'
import { migrate } from './migrate.ts'
import { jobsTables } from './migrations/001-jobs.ts'
import { MIGRATIONS } from './migrations/all-migrations.ts'
import type { Migration } from './migrations/migration.ts'
import { openPostgresJobStore, type PostgresJobStore } from './postgres-store.ts'

let database: TestDatabase
const open: PostgresJobStore[] = []
const bosses: PgBoss[] = []

beforeEach(async () => {
  database = await createTestDatabase()
})

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()))
  await Promise.all(bosses.splice(0).map((b) => b.stop({ graceful: false })))
  await database.drop()
})

async function openStore(log: (message: string) => void = () => {}): Promise<PostgresJobStore> {
  const store = await openPostgresJobStore({
    url: database.url,
    tokenKey: TEST_TOKEN_KEY,
    recoverySeconds: 15,
    retentionDays: 90,
    log,
  })
  open.push(store)
  return store
}

/** A pool of pg-boss's, as the store migrates on (one per process). */
async function poolOf(): Promise<QueueDb> {
  const boss = new PgBoss({ connectionString: database.url, supervise: false, schedule: false })
  bosses.push(boss)
  await boss.start()
  return boss.getDb() as QueueDb
}

async function sql<T = Record<string, unknown>>(text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: database.url })
  await client.connect()
  try {
    return (await client.query(text, values)).rows as T[]
  } finally {
    await client.end()
  }
}

const recorded = () =>
  sql<{ version: number; name: string }>(
    'SELECT version, name FROM boq_schema_migrations ORDER BY version',
  )

/** Two migrations after the real ones: the second needs the first, and neither may run twice. */
const later: Migration[] = [
  {
    version: MIGRATIONS.length + 1,
    name: 'a counter',
    statements: ['CREATE TABLE test_counter (n integer NOT NULL)'],
  },
  {
    version: MIGRATIONS.length + 2,
    name: 'one count',
    statements: ['INSERT INTO test_counter (n) VALUES (1)'],
  },
]

/**
 * The tables as BOQ created them before it recorded migrations: migration 1's statements, which
 * were that schema word for word (an applied migration is never edited).
 */
const UNRECORDED_SCHEMA = jobsTables.statements

describe('the PostgreSQL job store’s migrations', () => {
  it('are numbered 1, 2, 3… in the order they are listed', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1))
  })

  it('apply in order, each once, and are recorded', async () => {
    const db = await poolOf()
    const all = [...MIGRATIONS, ...later]
    expect((await migrate(db, all)).map((m) => m.version)).toEqual(all.map((m) => m.version))
    expect(await recorded()).toEqual(all.map(({ version, name }) => ({ version, name })))
    expect(await migrate(db, all)).toEqual([])
    expect(await sql('SELECT n FROM test_counter')).toEqual([{ n: 1 }])
  })

  it('apply once when several processes start at once', async () => {
    const all = [...MIGRATIONS, ...later]
    const [a, b] = await Promise.all([poolOf(), poolOf()])
    const applied = await Promise.all([migrate(a, all), migrate(b, all)])
    expect(applied.map((list) => list.length).sort()).toEqual([0, all.length])
    expect(await sql('SELECT n FROM test_counter')).toEqual([{ n: 1 }])

    // Two stores opening on an empty database: one applies, both serve.
    const second = await createTestDatabase()
    const first = database
    database = second
    try {
      const [x, y] = await Promise.all([openStore(), openStore()])
      expect(await recorded()).toEqual(MIGRATIONS.map(({ version, name }) => ({ version, name })))
      const { job } = await x.submit(newJobFor('ann', 's1'), { maxActivePerUser: 3 })
      expect(await y.get(job.id)).toMatchObject({ id: job.id, status: 'queued' })
    } finally {
      await Promise.all(open.splice(0).map((s) => s.close()))
      database = first
      await second.drop()
    }
  })

  it('adopt a database made before migrations were recorded, keeping its jobs and rules', async () => {
    for (const statement of UNRECORDED_SCHEMA) await sql(statement)
    const store = await openStore()
    const { job } = await store.submit(newJobFor('ann', 's1'), { maxActivePerUser: 3 })
    await openPostgresRulesStore({ db: store.db }).saveRules('p1', 'classification', 0, [], 'Ann')
    await store.close()
    open.splice(0)
    // As then: no record of migrations, nor the tables the later ones make.
    await sql(
      `DROP TABLE boq_schema_migrations, boq_watches, boq_watched_versions, boq_standing_grants,
        boq_bill_settings, boq_bill_issue_files, boq_bill_issues, boq_project_bills, boq_locations,
        boq_project_bill_parts`,
    )

    const adopted = await openStore()
    expect(await recorded()).toEqual(MIGRATIONS.map(({ version, name }) => ({ version, name })))
    expect(await adopted.get(job.id)).toMatchObject({ id: job.id, status: 'queued' })
    expect(
      await openPostgresRulesStore({ db: adopted.db }).rules('p1', 'classification'),
    ).toMatchObject({ version: 1, rows: [] })
  })

  it('refuse a database recorded newer than the code, in one line', async () => {
    await openStore()
    await Promise.all(open.splice(0).map((s) => s.close()))
    const newer = MIGRATIONS.length + 1
    await sql(`INSERT INTO boq_schema_migrations (version, name) VALUES ($1, 'from the future')`, [
      newer,
    ])
    const refused = openStore()
    await expect(refused).rejects.toThrow(
      `the job database is at schema version ${newer}, newer than this BOQ knows (${MIGRATIONS.length})`,
    )
    expect(String((await refused.catch((error: Error) => error)) as Error)).not.toContain('\n')
  })
})

describe('rows the PostgreSQL job store reads', () => {
  it('skips a job row that is not a job record, with a warning naming the job', async () => {
    const warnings: string[] = []
    const store = await openStore((message) => warnings.push(message))
    const limits = { maxActivePerUser: 3 }
    const { job: good } = await store.submit(newJobFor('ann', 's1'), limits)
    const { job: missing } = await store.submit(newJobFor('ann', 's2'), limits)
    const { job: other } = await store.submit(newJobFor('ann', 's3'), limits)
    await sql(`UPDATE boq_jobs SET record = record - 'userId' WHERE id = $1`, [missing.id])
    await sql(
      `UPDATE boq_jobs SET record = jsonb_set(record, '{id}', to_jsonb($2::text))
      WHERE id = $1`,
      [other.id, good.id],
    )

    expect((await store.listByUser('ann')).map((job) => job.id)).toEqual([good.id])
    expect(await store.get(missing.id)).toBeUndefined()
    expect(warnings).toContainEqual(
      expect.stringContaining(`skipped the unreadable job ${missing.id}: userId`),
    )
    expect(warnings).toContainEqual(expect.stringContaining(`${other.id}: it names job ${good.id}`))
    // Said once, however often the row is read.
    await store.listByUser('ann')
    expect(warnings.filter((w) => w.includes(missing.id))).toHaveLength(1)

    // Not handed to a worker either: the good job is the only one claimed.
    expect((await store.claim())?.job.id).toBe(good.id)
    expect(await store.claim()).toBeUndefined()
  })
})
