import { describe, expect, it } from 'vitest'
import { AppError } from './errors.ts'
import { createLogger } from './log.ts'

function capture(level: Parameters<typeof createLogger>[0]['level']) {
  const lines: string[] = []
  const logger = createLogger({ level, write: (line) => lines.push(line) })
  return {
    logger,
    lines,
    records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
  }
}

describe('the JSON-lines logger', () => {
  it('writes one JSON object per line: level, time, msg first, then the fields', () => {
    const { logger, lines, records } = capture('info')
    logger.info('request', { method: 'GET', path: '/api/aps/hubs', status: 200, ms: 3.1 })
    expect(lines).toHaveLength(1)
    expect(lines[0]).not.toContain('\n')
    expect(Object.keys(records()[0] ?? {})).toEqual([
      'level',
      'time',
      'msg',
      'method',
      'path',
      'status',
      'ms',
    ])
    expect(records()[0]).toMatchObject({ level: 'info', msg: 'request', status: 200, ms: 3.1 })
    expect(new Date(String(records()[0]?.time)).getTime()).toBeGreaterThan(0)
  })

  it('writes only lines at or above its level, which can change', () => {
    const { logger, records } = capture('warn')
    logger.debug('d')
    logger.info('i')
    logger.warn('w')
    logger.error('e')
    expect(records().map((r) => r.level)).toEqual(['warn', 'error'])
    expect(logger.enabled('info')).toBe(false)
    logger.setLevel('debug')
    logger.debug('d')
    expect(records().at(-1)).toMatchObject({ level: 'debug', msg: 'd' })
  })

  it('keeps its own keys, errors readable, and a line even for a circular field', () => {
    const { logger, records } = capture('debug')
    logger.error('failed', { level: 'fake', msg: 'fake', err: new AppError(418, 'teapot') })
    const [record] = records()
    expect(record).toMatchObject({ level: 'error', msg: 'failed' })
    expect(record?.err).toMatchObject({ type: 'AppError', message: 'teapot', status: 418 })
    expect(String((record?.err as { stack?: string } | undefined)?.stack)).toContain('log.test.ts')
    const loop: Record<string, unknown> = {}
    loop.self = loop
    logger.warn('odd', { loop, big: 10n })
    expect(records().at(-1)).toMatchObject({ level: 'warn', msg: 'odd' })
  })
})
