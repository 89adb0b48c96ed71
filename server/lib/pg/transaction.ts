import type { Db } from 'pg-boss'

/**
 * The database pool every PostgreSQL store shares: pg-boss's own, with the capabilities BOQ uses
 * (its built-in database has them all).
 */
export type QueueDb = Db & Required<Pick<Db, 'beginTransaction' | 'listen'>>

/** One statement: its rows. */
// biome-ignore lint/suspicious/noExplicitAny: rows are read column by column where they are used
export type Query = (text: string, values?: unknown[]) => Promise<Record<string, any>[]>

/**
 * Runs `work` in one transaction on pg-boss's pool: committed when it resolves, rolled back when
 * it throws. `tx` passes the transaction on to pg-boss's own calls (`{ db: tx }`).
 */
export async function inTransaction<T>(
  db: QueueDb,
  work: (q: Query, tx: QueueDb) => Promise<T>,
): Promise<T> {
  const tx = await db.beginTransaction()
  try {
    const result = await work(
      async (text, values) => (await tx.db.executeSql(text, values)).rows,
      tx.db as QueueDb,
    )
    await tx.commit()
    return result
  } catch (error) {
    await tx.rollback()
    throw error
  }
}
