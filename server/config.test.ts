import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.ts'

describe('loadConfig', () => {
  it('has defaults for everything', () => {
    const config = loadConfig({}, '/srv/boq')
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: '/srv/boq/data',
      corsOrigins: [],
      sessionSecret: undefined,
      aps: null,
      logLevel: 'info',
      maxFileBytes: 200 * 1024 * 1024,
      maxQueuedPerUser: 10,
      settleMs: 2000,
      databaseUrl: null,
      role: 'all',
      jobRetentionDays: 90,
      jobRecoverySeconds: 30,
    })
    expect(config.userName).toEqual(expect.any(String))
    expect(config.userName).not.toBe('')
  })

  it('reads every variable', () => {
    const config = loadConfig(
      {
        PORT: '0',
        HOST: '0.0.0.0',
        BOQ_DATA_DIR: 'store',
        BOQ_USER_NAME: 'Grace',
        BOQ_SEED_DIR: 'drawings',
        BOQ_CORS_ORIGINS: 'http://localhost:5173, https://boq.example.com/',
        SESSION_SECRET: 'x'.repeat(32),
        APS_CLIENT_ID: 'id',
        APS_CLIENT_SECRET: 'secret',
        APS_CALLBACK_URL: 'http://localhost:3000/api/aps/auth/callback',
        APS_BASE_URL: 'http://127.0.0.1:9999/',
        BOQ_LOG_LEVEL: 'debug',
        BOQ_WORKERS: '3',
        BOQ_MAX_FILE_MB: '1.5',
        BOQ_MAX_QUEUED_PER_USER: '4',
        BOQ_SETTLE_SECONDS: '0.5',
        BOQ_DATABASE_URL: 'postgres://boq@db.example.com:5432/boq',
        BOQ_ROLE: 'worker',
        BOQ_JOB_RETENTION_DAYS: '30',
        BOQ_JOB_RECOVERY_SECONDS: '20',
      },
      '/srv/boq',
    )
    expect(config).toMatchObject({
      port: 0,
      host: '0.0.0.0',
      dataDir: '/srv/boq/store',
      userName: 'Grace',
      seedDir: '/srv/boq/drawings',
      corsOrigins: ['http://localhost:5173', 'https://boq.example.com'],
      sessionSecret: 'x'.repeat(32),
      aps: {
        clientId: 'id',
        clientSecret: 'secret',
        callbackUrl: 'http://localhost:3000/api/aps/auth/callback',
        baseUrl: 'http://127.0.0.1:9999',
      },
      logLevel: 'debug',
      workers: 3,
      maxFileBytes: 1.5 * 1024 * 1024,
      maxQueuedPerUser: 4,
      settleMs: 500,
      databaseUrl: 'postgres://boq@db.example.com:5432/boq',
      role: 'worker',
      jobRetentionDays: 30,
      jobRecoverySeconds: 20,
    })
  })

  it('refuses job settings that several processes could not share', () => {
    const secret = { SESSION_SECRET: 'x'.repeat(32) }
    const db = { BOQ_DATABASE_URL: 'postgres://127.0.0.1/boq' }
    expect(() => loadConfig({ BOQ_ROLE: 'worker' })).toThrow(
      'BOQ_ROLE=worker needs BOQ_DATABASE_URL: without it the jobs live in this one process.',
    )
    expect(() => loadConfig({ BOQ_ROLE: 'cook', ...db, ...secret })).toThrow(
      'BOQ_ROLE must be one of all, web, worker (got "cook").',
    )
    expect(() => loadConfig(db)).toThrow(/BOQ_DATABASE_URL needs SESSION_SECRET/)
    expect(() => loadConfig({ BOQ_DATABASE_URL: 'mysql://x/y', ...secret })).toThrow(
      /must be a PostgreSQL URL/,
    )
    expect(() => loadConfig({ BOQ_JOB_RECOVERY_SECONDS: '5' })).toThrow(
      'BOQ_JOB_RECOVERY_SECONDS must be at least 15 (got "5").',
    )
    expect(() => loadConfig({ BOQ_JOB_RETENTION_DAYS: '0' })).toThrow(ConfigError)
    expect(loadConfig({ ...db, ...secret, BOQ_ROLE: 'Web' }).role).toBe('web')
  })

  it('takes an empty BOQ_SEED_DIR as “no drawings”', () => {
    expect(loadConfig({ BOQ_SEED_DIR: '' }).seedDir).toBeNull()
  })

  it('defaults the APS base URL to Autodesk', () => {
    const aps = loadConfig({
      APS_CLIENT_ID: 'a',
      APS_CLIENT_SECRET: 'b',
      APS_CALLBACK_URL: 'https://x.test/cb',
    }).aps
    expect(aps?.baseUrl).toBe('https://developer.api.autodesk.com')
  })

  it('logs at info by default, at warn under NODE_ENV=test, and as BOQ_LOG_LEVEL says', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).logLevel).toBe('info')
    expect(loadConfig({ NODE_ENV: 'test' }).logLevel).toBe('warn')
    expect(loadConfig({ NODE_ENV: 'test', BOQ_LOG_LEVEL: 'debug' }).logLevel).toBe('debug')
    expect(loadConfig({ BOQ_LOG_LEVEL: ' ERROR ' }).logLevel).toBe('error')
    expect(loadConfig({ BOQ_LOG_LEVEL: '' }).logLevel).toBe('info')
  })

  it.each([
    [{ BOQ_LOG_LEVEL: 'verbose' }, /BOQ_LOG_LEVEL must be one of debug, info, warn, error/],
    [{ PORT: 'eighty' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT must be a whole number/],
    [{ PORT: '-1' }, /PORT/],
    [{ BOQ_CORS_ORIGINS: '*' }, /cannot be "\*"/],
    [{ BOQ_CORS_ORIGINS: 'localhost:5173' }, /BOQ_CORS_ORIGINS/],
    [{ BOQ_CORS_ORIGINS: 'not an origin' }, /not an origin/],
    [{ SESSION_SECRET: 'short' }, /at least 32 characters/],
    [{ BOQ_WORKERS: '1.5' }, /BOQ_WORKERS must be a positive whole number/],
    [{ BOQ_MAX_QUEUED_PER_USER: '0' }, /BOQ_MAX_QUEUED_PER_USER must be a positive whole number/],
    [{ BOQ_MAX_FILE_MB: 'lots' }, /BOQ_MAX_FILE_MB must be a positive number/],
    [{ BOQ_SETTLE_SECONDS: '-1' }, /BOQ_SETTLE_SECONDS must be a number of seconds, 0 or more/],
    [{ APS_CLIENT_ID: 'a' }, /missing: APS_CLIENT_SECRET, APS_CALLBACK_URL/],
    [
      { APS_CLIENT_ID: 'a', APS_CLIENT_SECRET: 'b', APS_CALLBACK_URL: 'nope' },
      /APS_CALLBACK_URL is not an absolute URL/,
    ],
  ])('refuses %o with a readable reason', (env, reason) => {
    expect(() => loadConfig(env)).toThrow(ConfigError)
    expect(() => loadConfig(env)).toThrow(reason)
  })
})
