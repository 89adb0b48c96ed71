import { availableParallelism } from 'node:os'
import { readMaxFileBytes } from '../boq/limits.ts'

export interface JobsConfig {
  /** BOQ_WORKERS: engine worker threads, and jobs run at once. Default: the number of cores. */
  workers: number
  /** BOQ_MAX_FILE_MB: the largest drawing extracted, in bytes. Default 200 MB. */
  maxFileBytes: number
  /** BOQ_MAX_QUEUED_PER_USER: jobs one user may have queued or running. Default 10. */
  maxQueuedPerUser: number
  /** SESSION_SECRET, when set: the key that seals stored tokens is derived from it. */
  sessionSecret?: string
}

/** Reads the jobs' settings; a value that is not a positive number is a startup error. */
export function readJobsConfig(env: Record<string, string | undefined> = process.env): JobsConfig {
  return {
    workers: positive(env, 'BOQ_WORKERS', availableParallelism(), true),
    maxFileBytes: readMaxFileBytes(env),
    maxQueuedPerUser: positive(env, 'BOQ_MAX_QUEUED_PER_USER', 10, true),
    sessionSecret: env.SESSION_SECRET || undefined,
  }
}

function positive(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
  integer: boolean,
): number {
  const raw = env[name]?.trim()
  if (!raw) return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new Error(`${name} must be a positive ${integer ? 'whole ' : ''}number (got "${raw}").`)
  }
  return value
}
