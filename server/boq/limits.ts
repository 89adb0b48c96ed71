/** The largest drawing read when nothing else is said: BOQ_MAX_FILE_MB's default. */
export const DEFAULT_MAX_FILE_MB = 200

/**
 * BOQ_MAX_FILE_MB in bytes: the one limit the server, its jobs, the engine and the command line
 * all keep. A value that is not a positive number is an error with a readable reason.
 */
export function readMaxFileBytes(env: Record<string, string | undefined>): number {
  const raw = env.BOQ_MAX_FILE_MB?.trim()
  const mb = raw ? Number(raw) : DEFAULT_MAX_FILE_MB
  if (!Number.isFinite(mb) || mb <= 0) {
    throw new Error(`BOQ_MAX_FILE_MB must be a positive number (got "${raw}").`)
  }
  return Math.round(mb * 1024 * 1024)
}
