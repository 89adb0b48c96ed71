import { availableParallelism, userInfo } from 'node:os'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DEFAULT_MAX_FILE_MB } from './boq/run/limits.ts'

/** The repository root (server/ lives directly below it). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** Autodesk Platform Services settings; present only when APS mode is chosen. */
export interface ApsConfig {
  clientId: string
  clientSecret: string
  callbackUrl: string
  /** Where the APS API lives (a fake APS server in tests). */
  baseUrl: string
}

export interface Config {
  port: number
  host: string
  /** Absolute path of BOQ_DATA_DIR. */
  dataDir: string
  /** The local user's display name (local mode). */
  userName: string
  /** Absolute path of the drawings copied into a fresh local cloud, or null for none. */
  seedDir: string | null
  /** Normalised origins (scheme://host[:port]) allowed to call the API with credentials. */
  corsOrigins: string[]
  /** SESSION_SECRET, or undefined to generate a key once into dataDir. */
  sessionSecret: string | undefined
  /** APS mode when set (all of APS_CLIENT_ID, APS_CLIENT_SECRET, APS_CALLBACK_URL given). */
  aps: ApsConfig | null
  /** The built app served with history fallback. */
  distDir: string
  /** The lowest level of the JSON log lines written to stderr. */
  logLevel: LogLevel
  /** BOQ_WORKERS: engine worker threads, and jobs run at once. Default: the number of cores. */
  workers: number
  /** BOQ_MAX_FILE_MB in bytes: the one size limit of uploads, jobs, the engine and the CLI. */
  maxFileBytes: number
  /** BOQ_MAX_QUEUED_PER_USER: jobs one user may have queued or running. Default 10. */
  maxQueuedPerUser: number
  /**
   * BOQ_WATCH_POLL_SECONDS: how often the local cloud's watched folders are looked through for
   * new versions, and waiting versions given a free place. Default 10.
   */
  watchPollSeconds: number
  /**
   * BOQ_SETTLE_SECONDS in ms: how long a file dropped by hand into the local cloud must stay
   * unchanged before it is a version (0: at once). Default 2 s.
   */
  settleMs: number
  /**
   * BOQ_DATABASE_URL: jobs kept and queued in this PostgreSQL database, shared by every process
   * that names it; null: the embedded store in dataDir, for one process.
   */
  databaseUrl: string | null
  /** BOQ_ROLE: `all` serves HTTP and runs jobs, `web` only serves, `worker` only runs jobs. */
  role: ServerRole
  /** BOQ_JOB_RETENTION_DAYS: finished jobs and their results are deleted after this. Default 90. */
  jobRetentionDays: number
  /**
   * BOQ_JOB_RECOVERY_SECONDS: how soon a job whose worker stopped answering runs again on another
   * worker (PostgreSQL only). Default 30, at least 15.
   */
  jobRecoverySeconds: number
}

export const SERVER_ROLES = ['all', 'web', 'worker'] as const
export type ServerRole = (typeof SERVER_ROLES)[number]

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/** A setting that cannot be used; main prints the message and exits. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConfigError'
  }
}

/** The sample drawings kept in the repository: the demo cloud's default seed, the tests' drawings. */
export const SAMPLE_DRAWINGS = resolve(repoRoot, 'fixtures/drawings')
const DEFAULT_APS_BASE_URL = 'https://developer.api.autodesk.com'

type Env = Record<string, string | undefined>

/** Reads every setting from the environment; throws ConfigError with a readable reason. */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const sessionSecret = parseSecret(env.SESSION_SECRET)
  return {
    port: parsePort(env.PORT),
    host: nonEmpty(env.HOST) ?? '127.0.0.1',
    dataDir: resolve(cwd, nonEmpty(env.BOQ_DATA_DIR) ?? 'data'),
    userName: nonEmpty(env.BOQ_USER_NAME) ?? osUserName(),
    seedDir: parseSeedDir(env.BOQ_SEED_DIR, cwd),
    corsOrigins: parseOrigins(env.BOQ_CORS_ORIGINS),
    sessionSecret,
    aps: parseAps(env),
    distDir: resolve(repoRoot, 'dist'),
    logLevel: parseLogLevel(env),
    workers: positiveInteger(env, 'BOQ_WORKERS', availableParallelism()),
    maxFileBytes: parseMaxFileBytes(env),
    maxQueuedPerUser: positiveInteger(env, 'BOQ_MAX_QUEUED_PER_USER', 10),
    watchPollSeconds: positiveInteger(env, 'BOQ_WATCH_POLL_SECONDS', 10),
    settleMs: parseSettleMs(env),
    ...parseJobsPlace(env, sessionSecret),
    jobRetentionDays: positiveInteger(env, 'BOQ_JOB_RETENTION_DAYS', 90),
    jobRecoverySeconds: parseRecoverySeconds(env),
  }
}

/**
 * Where jobs live and what this process does with them. Several processes share jobs only
 * through PostgreSQL, and only with one SESSION_SECRET: each must open the tokens the others
 * sealed.
 */
function parseJobsPlace(
  env: Env,
  sessionSecret: string | undefined,
): Pick<Config, 'databaseUrl' | 'role'> {
  const databaseUrl = nonEmpty(env.BOQ_DATABASE_URL) ?? null
  const roleText = nonEmpty(env.BOQ_ROLE)?.toLowerCase() ?? 'all'
  if (!(SERVER_ROLES as readonly string[]).includes(roleText)) {
    throw new ConfigError(
      `BOQ_ROLE must be one of ${SERVER_ROLES.join(', ')} (got "${env.BOQ_ROLE}").`,
    )
  }
  const role = roleText as ServerRole
  if (databaseUrl === null) {
    if (role !== 'all') {
      throw new ConfigError(
        `BOQ_ROLE=${role} needs BOQ_DATABASE_URL: without it the jobs live in this one process.`,
      )
    }
    return { databaseUrl, role }
  }
  if (!/^postgres(ql)?:\/\//.test(databaseUrl) || !URL.canParse(databaseUrl)) {
    throw new ConfigError(
      'BOQ_DATABASE_URL must be a PostgreSQL URL such as postgres://user:password@host:5432/boq.',
    )
  }
  if (sessionSecret === undefined) {
    throw new ConfigError(
      'BOQ_DATABASE_URL needs SESSION_SECRET, the same in every process: a job queued by one is run by another, which must open its sealed sign-in.',
    )
  }
  return { databaseUrl, role }
}

function parseRecoverySeconds(env: Env): number {
  const seconds = positiveInteger(env, 'BOQ_JOB_RECOVERY_SECONDS', 30)
  if (seconds < 15) {
    throw new ConfigError(`BOQ_JOB_RECOVERY_SECONDS must be at least 15 (got "${seconds}").`)
  }
  return seconds
}

/** BOQ_MAX_FILE_MB in bytes (the command line reads only this setting). */
export function parseMaxFileBytes(env: Env): number {
  const raw = nonEmpty(env.BOQ_MAX_FILE_MB)
  const mb = raw ? Number(raw) : DEFAULT_MAX_FILE_MB
  if (!Number.isFinite(mb) || mb <= 0) {
    throw new ConfigError(`BOQ_MAX_FILE_MB must be a positive number (got "${raw}").`)
  }
  return Math.round(mb * 1024 * 1024)
}

/**
 * How long a file dropped by hand into the local cloud must stay unchanged before it is taken as
 * whole and becomes a version (BOQ_SETTLE_SECONDS' default): a copy in progress (a person's, a
 * sync tool's) writes far more often than this, and a watcher waits for it at most this longer.
 */
export const SETTLE_MS = 2000

function parseSettleMs(env: Env): number {
  const raw = nonEmpty(env.BOQ_SETTLE_SECONDS)
  if (raw === undefined) return SETTLE_MS
  const seconds = Number(raw)
  if (!Number.isFinite(seconds) || seconds < 0) {
    throw new ConfigError(
      `BOQ_SETTLE_SECONDS must be a number of seconds, 0 or more (got "${raw}").`,
    )
  }
  return Math.round(seconds * 1000)
}

function positiveInteger(env: Env, name: string, fallback: number): number {
  const raw = nonEmpty(env[name])
  if (raw === undefined) return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value <= 0) {
    throw new ConfigError(`${name} must be a positive whole number (got "${raw}").`)
  }
  return value
}

/**
 * BOQ_LOG_LEVEL when set; else `info`, or `warn` under NODE_ENV=test so test runs do not print a
 * line per request.
 */
export function parseLogLevel(env: Env): LogLevel {
  const text = nonEmpty(env.BOQ_LOG_LEVEL)?.toLowerCase()
  if (text === undefined) return env.NODE_ENV === 'test' ? 'warn' : 'info'
  if (!(LOG_LEVELS as readonly string[]).includes(text)) {
    throw new ConfigError(
      `BOQ_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${env.BOQ_LOG_LEVEL}").`,
    )
  }
  return text as LogLevel
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim()
  return trimmed ? trimmed : undefined
}

function parsePort(value: string | undefined): number {
  const text = nonEmpty(value)
  if (text === undefined) return 3000
  const port = Number(text)
  if (!/^\d+$/.test(text) || port > 65535) {
    throw new ConfigError(`PORT must be a whole number from 0 to 65535 (got "${value}").`)
  }
  return port
}

function osUserName(): string {
  try {
    return userInfo().username || 'Local user'
  } catch {
    return 'Local user'
  }
}

/** Unset: the repository's sample drawings. Empty: no drawings. Otherwise the given folder. */
function parseSeedDir(value: string | undefined, cwd: string): string | null {
  if (value === undefined) return SAMPLE_DRAWINGS
  const text = value.trim()
  return text ? resolve(cwd, text) : null
}

function parseOrigins(value: string | undefined): string[] {
  const text = nonEmpty(value)
  if (!text) return []
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      if (part === '*') {
        throw new ConfigError(
          'BOQ_CORS_ORIGINS cannot be "*": list each origin allowed to call with credentials.',
        )
      }
      let url: URL
      try {
        url = new URL(part)
      } catch {
        throw new ConfigError(
          `BOQ_CORS_ORIGINS: "${part}" is not an origin such as https://boq.example.com.`,
        )
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new ConfigError(`BOQ_CORS_ORIGINS: "${part}" must start with http:// or https://.`)
      }
      return url.origin
    })
}

function parseSecret(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined
  if (value.length < 32) {
    throw new ConfigError(
      'SESSION_SECRET must be at least 32 characters long (or unset, to generate a key).',
    )
  }
  return value
}

function parseAps(env: Env): ApsConfig | null {
  const clientId = nonEmpty(env.APS_CLIENT_ID)
  const clientSecret = nonEmpty(env.APS_CLIENT_SECRET)
  const callbackUrl = nonEmpty(env.APS_CALLBACK_URL)
  const given = {
    APS_CLIENT_ID: clientId,
    APS_CLIENT_SECRET: clientSecret,
    APS_CALLBACK_URL: callbackUrl,
  }
  const missing = Object.entries(given)
    .filter(([, v]) => v === undefined)
    .map(([k]) => k)
  if (missing.length === 3) return null
  if (missing.length > 0 || !clientId || !clientSecret || !callbackUrl) {
    throw new ConfigError(
      `Autodesk mode needs APS_CLIENT_ID, APS_CLIENT_SECRET and APS_CALLBACK_URL; missing: ${missing.join(', ')}.`,
    )
  }
  const baseUrl = (nonEmpty(env.APS_BASE_URL) ?? DEFAULT_APS_BASE_URL).replace(/\/+$/, '')
  for (const [name, url] of [
    ['APS_CALLBACK_URL', callbackUrl],
    ['APS_BASE_URL', baseUrl],
  ]) {
    if (!URL.canParse(url)) throw new ConfigError(`${name} is not an absolute URL (got "${url}").`)
  }
  return { clientId, clientSecret, callbackUrl, baseUrl }
}
