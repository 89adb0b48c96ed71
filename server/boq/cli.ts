#!/usr/bin/env node
/**
 * boq <file>… [--format json|csv|xlsx] [--out <file or folder>]
 * Exit 0 when every file gave a BOQ, 1 when one failed (one line each on stderr), 2 on bad usage.
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import { basename, extname, join } from 'node:path'
import { parseArgs } from 'node:util'
import { toCsv } from './csv.ts'
import { createBoqEngine } from './engine.ts'
import { BoqError } from './errors.ts'
import type { Boq } from './schema.ts'
import { toXlsx } from './xlsx.ts'

const USAGE = 'usage: boq <file>… [--format json|csv|xlsx] [--out <file or folder>]'
const FORMATS = ['json', 'csv', 'xlsx'] as const
type Format = (typeof FORMATS)[number]

/** One line: the error's sentence without its capital and full stop, after the file name. */
function line(file: string, error: unknown): string {
  if (error instanceof BoqError) {
    const text = error.message.replace(/\.$/, '')
    return `${file}: ${text.charAt(0).toLowerCase()}${text.slice(1)}`
  }
  const code = (error as { code?: string })?.code
  if (code === 'ENOENT') return `${file}: no such file`
  if (code === 'EISDIR') return `${file}: is a folder, not a file`
  if (code === 'EACCES') return `${file}: permission denied`
  return `${file}: unexpected error (${error instanceof Error ? error.message : String(error)})`
}

async function render(boq: Boq, format: Format): Promise<Uint8Array | string> {
  if (format === 'csv') return toCsv(boq)
  if (format === 'xlsx') return toXlsx(boq)
  return `${JSON.stringify(boq, null, 2)}\n`
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory()
  } catch {
    return false
  }
}

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        format: { type: 'string', short: 'f' },
        out: { type: 'string', short: 'o' },
        help: { type: 'boolean', short: 'h' },
      },
    })
  } catch (error) {
    process.stderr.write(
      `boq: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`,
    )
    return 2
  }
  const { values, positionals: files } = parsed
  if (values.help) {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  const format = String(values.format ?? 'json') as Format
  if (!FORMATS.includes(format) || files.length === 0) {
    process.stderr.write(
      `${files.length === 0 ? 'boq: no file given' : `boq: unknown format '${format}'`}\n${USAGE}\n`,
    )
    return 2
  }
  const out = typeof values.out === 'string' ? values.out : undefined
  const outIsFolder =
    out !== undefined && (files.length > 1 || out.endsWith('/') || (await isFolder(out)))
  if (outIsFolder && out) await mkdir(out, { recursive: true })

  const engine = createBoqEngine()
  let failed = 0
  const toStdout: Boq[] = []
  try {
    for (const file of files) {
      try {
        const bytes = new Uint8Array(await readFile(file))
        const boq = await engine.extract({ bytes, fileName: basename(file) })
        const target =
          out === undefined
            ? format === 'xlsx'
              ? `${basename(file, extname(file))}.boq.xlsx`
              : undefined
            : outIsFolder
              ? join(out, `${basename(file, extname(file))}.boq.${format}`)
              : out
        if (target === undefined) {
          toStdout.push(boq)
          continue
        }
        await writeFile(target, await render(boq, format))
        process.stderr.write(`${file}: BOQ written to ${target}\n`)
      } catch (error) {
        failed++
        process.stderr.write(`${line(file, error)}\n`)
      }
    }
  } finally {
    await engine.close()
  }
  if (toStdout.length > 0) {
    if (format === 'json') {
      const value = files.length === 1 ? toStdout[0] : toStdout
      process.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
    } else {
      process.stdout.write(toStdout.map((boq) => toCsv(boq)).join('\n'))
    }
  }
  return failed > 0 ? 1 : 0
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error) => {
    process.stderr.write(`boq: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 1
  },
)
