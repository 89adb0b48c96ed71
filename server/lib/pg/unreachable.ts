/** How long a job's last writes wait for the database to come back. */
const TRIES = 20
const PAUSE_MS = 1000

/** PostgreSQL's codes for a server that is shutting down, starting or unreachable. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
])

/** The database could not be reached (as opposed to refusing a statement). */
export function databaseUnreachable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08')))
    return true
  // node-postgres says so in words when a connection ends under a query.
  return error instanceof Error && /Connection terminated|not queryable/i.test(error.message)
}

/**
 * Runs a write again while the database cannot be reached (a restart, a failover): a job that
 * has done its work keeps its result through a short outage instead of running again.
 */
export async function retryWhileUnreachable<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write()
    } catch (error) {
      if (attempt >= TRIES || !databaseUnreachable(error)) throw error
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS))
    }
  }
}
