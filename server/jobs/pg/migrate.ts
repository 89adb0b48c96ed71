import type { QueueDb } from '../../lib/pg/transaction.ts'
import { inTransaction } from '../../lib/pg/transaction.ts'
import { MIGRATIONS } from './migrations/all-migrations.ts'
import type { Migration } from './migrations/migration.ts'

/** Any number taken once for BOQ: only processes migrating BOQ's tables wait on it. */
const MIGRATION_LOCK = 7_120_424_001

/**
 * Brings BOQ's tables (beside pg-boss's own schema, `pgboss`) to the newest version this code
 * knows: the migrations not yet recorded in `boq_schema_migrations` are applied in order and
 * recorded, all in one transaction under an advisory lock, so of several processes starting at
 * once the first applies them and the others, once it commits, find them recorded. A database
 * recorded newer than this code refuses it: the code would misread tables it does not know.
 * Answers the migrations it applied.
 */
export function migrate(
  db: QueueDb,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<Migration[]> {
  const known = migrations.at(-1)?.version ?? 0
  return inTransaction(db, async (q) => {
    await q('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
    await q(`CREATE TABLE IF NOT EXISTS boq_schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`)
    const recorded = new Set(
      (await q('SELECT version FROM boq_schema_migrations')).map((row) => Number(row.version)),
    )
    const newest = Math.max(0, ...recorded)
    if (newest > known) {
      throw new Error(
        `the job database is at schema version ${newest}, newer than this BOQ knows ` +
          `(${known}): run the BOQ that upgraded it, or point BOQ_DATABASE_URL at another database.`,
      )
    }
    const applied: Migration[] = []
    for (const migration of migrations) {
      if (recorded.has(migration.version)) continue
      for (const statement of migration.statements) await q(statement)
      await q('INSERT INTO boq_schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ])
      applied.push(migration)
    }
    return applied
  })
}
