import { type LogLevel, parseLogLevel } from './config.ts'

export type LogFields = Record<string, unknown>

/**
 * JSON lines with a level: `{"level":"info","time":"…","msg":"request","method":"GET",…}`.
 * Fields go after level, time and msg and cannot replace them; an Error field keeps its
 * name, message and stack.
 */
export interface Logger {
  debug(msg: string, fields?: LogFields): void
  info(msg: string, fields?: LogFields): void
  warn(msg: string, fields?: LogFields): void
  error(msg: string, fields?: LogFields): void
  /** Whether a line of this level is written (to skip work for a line nobody will see). */
  enabled(level: LogLevel): boolean
  setLevel(level: LogLevel): void
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 }

export function createLogger(options: {
  level: LogLevel
  /** Where each line goes (without its newline); stderr by default. */
  write?: (line: string) => void
}): Logger {
  let lowest = RANK[options.level]
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`))
  const at = (level: LogLevel) => (msg: string, fields?: LogFields) => {
    if (RANK[level] >= lowest) write(format(level, msg, fields))
  }
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    enabled: (level) => RANK[level] >= lowest,
    setLevel(level) {
      lowest = RANK[level]
    },
  }
}

function format(level: LogLevel, msg: string, fields: LogFields = {}): string {
  const time = new Date().toISOString()
  const record = { level, time, msg, ...fields }
  // Assigning keeps the keys first in the line while a field of the same name cannot replace them.
  Object.assign(record, { level, time, msg })
  try {
    return JSON.stringify(record, plainValue)
  } catch {
    // A circular field must not cost the line.
    return JSON.stringify({ level, time, msg, fields: 'not serialisable' })
  }
}

function plainValue(_key: string, value: unknown): unknown {
  if (value instanceof Error) {
    const status = (value as { status?: unknown }).status
    return { type: value.name, message: value.message, status, stack: value.stack }
  }
  return typeof value === 'bigint' ? value.toString() : value
}

function levelFromEnvironment(): LogLevel {
  try {
    return parseLogLevel(process.env)
  } catch {
    // A bad BOQ_LOG_LEVEL is reported by loadConfig, with the other settings.
    return 'info'
  }
}

/**
 * The process's logger, on stderr (stdout carries only the server's `BOQ listening on` line).
 * Its level comes from the environment as server/config.ts reads it; main sets it from the config.
 */
export const log: Logger = createLogger({ level: levelFromEnvironment() })
