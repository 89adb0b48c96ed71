/**
 * boq <drawing>… [options]: the bill of quantities of each drawing, as JSON, CSV or XLSX.
 * The exit codes are the ones HELP lists; scripts rely on them. `main` runs one command in this
 * process (bin.ts is the command itself), so tests run it without starting Node again.
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import { basename, extname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { BillSettings } from '#contract/bill-settings.ts'
import type { LocationRow } from '#contract/locations.ts'
import { parseMaxFileBytes } from '../../config.ts'
import { compareBills } from '../compare/compare.ts'
import { BoqError } from '../model/boq-error.ts'
import {
  type BillOptions,
  type Boq,
  STATED_UNITS,
  type StatedUnit,
  type UnitSystem,
} from '../model/schema.ts'
import { priceBill } from '../price/price.ts'
import { changeBillCsv, toCsv } from '../write/csv.ts'
import { changeBillXlsx, toXlsx } from '../write/xlsx.ts'
import { readLocationsFile } from './cli-locations.ts'
import { typedIn } from './cli-paths.ts'
import { type Pricing, RulesFileError, readPricing } from './cli-rules.ts'
import { readSettings } from './cli-settings.ts'
import { warningLines } from './cli-warnings.ts'
import { createBoqEngine } from './engine.ts'

const USAGE =
  'usage: boq <drawing>… [--rules <file>] | boq compare <old> <new>  [--format json|csv|xlsx] [--out <path>] (boq --help)'
const HELP = `boq: the bill of quantities of DWG and DXF drawings

usage: boq <drawing>… [options]
       boq compare <old drawing> <new drawing> [options]
                                  the change bill: every item of either bill, its quantity
                                  before and after, the change; in the newer bill's units

options:
  -f, --format json|csv|xlsx      output format (default: json)
  -o, --out <file or folder/>     where to write: a file for one drawing, a folder (made when
                                  missing) for several; without it JSON and CSV go to stdout and
                                  XLSX to <name>.boq.xlsx in the folder the command was typed in
                                  (the path written is printed)
      --units metric|imperial|drawing
                                  units of the bill (default: by the drawing: metric drawings in
                                  m and m², imperial ones in ft and ft², unitless ones in their own)
      --drawing-units ${STATED_UNITS.join('|')}
                                  the unit of a drawing that does not state one
      --split-by TAG,…            count blocks separately by these attribute values
                                  (visibility: a dynamic block's visibility state)
      --rules <rules.csv|.xlsx|.json>
                                  takeoff rules: the bill priced by them comes first (JSON:
                                  "priced"; XLSX: the first sheet, amounts as formulas, the
                                  rules on a Rules sheet; CSV: the first sections); the
                                  measured bill stays as it is
      --classification <codes.csv|.xlsx|.json>
                                  a classification system (code, title, parent): items take
                                  their code's title and are grouped by its top level
      --settings <settings.json>  bill settings (a project's, as JSON): currency, title, client,
                                  reference, decimals per unit, adjustments below the items
                                  (percentages, fixed sums, manual items, tax); without it
                                  amounts have two decimals and no currency
      --locations <locations.csv|.xlsx|.json>
                                  which closed outlines are rooms or zones (layer, label: text,
                                  attribute:TAG or layer; labelLayer): every figure gets its
                                  parts by zone (byZone), the JSON its zones; also with compare
  -h, --help                      this text

paths (drawings, --out, --rules, --classification, --settings, --locations) are relative to the folder the command was typed in, through
npm run boq and npx boq too

warnings (what a bill leaves out or assumes) go to stderr, one line each:
  <drawing>: warning: <text>      at most ten per drawing, then "… and N more warnings";
                                  every warning is also in the bill

exit codes:
  0  every drawing gave its bill, written where asked (with warnings or without)
  1  a drawing could not be read or its bill not written: one line each on stderr, and the
     other drawings are still done; also any unexpected error (boq: <reason>), and through
     npm run boq a Node too old to run BOQ
  2  bad usage, nothing read: one line saying what is wrong, then the usage line; or a
     rules, classification, settings or locations file that cannot be used, nothing written: one line
     naming the file, its row or field and what is wrong

examples:
  boq plan.dwg                                   JSON on stdout
  boq plan.dwg --format xlsx --out plan-boq.xlsx
  boq a.dwg b.dxf --format csv --out boqs/ --units metric --split-by TYPE,visibility
  boq survey.dwg --drawing-units mm
  boq plan.dwg --rules rules.csv --classification codes.xlsx --format xlsx
  boq plan.dwg --rules rules.csv --settings settings.json --format xlsx
  boq plan.dwg --locations locations.csv --rules rules.csv --format xlsx
  boq compare plan-v6.dwg plan-v7.dwg --format csv

environment:
  BOQ_MAX_FILE_MB                 largest drawing read, in MB (default 200)
`
const FORMATS = ['json', 'csv', 'xlsx'] as const
type Format = (typeof FORMATS)[number]
const SYSTEMS: UnitSystem[] = ['metric', 'imperial', 'drawing']

/** What a command reads and writes besides its files. */
export interface CliIo {
  stdout: { write(chunk: string | Uint8Array): unknown }
  stderr: { write(text: string): unknown }
  /** The process's working folder (npm runs scripts from the package's folder). */
  cwd: string
  env: NodeJS.ProcessEnv
}

/** One command's surroundings: where relative paths start from, and where its lines go. */
interface Command {
  io: CliIo
  /** The folder the user typed the command in. */
  here: string
  at(path: string): string
}

/** Bad usage: one line saying what is wrong, then the usage line; exit 2. */
class UsageError extends Error {}

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

async function kindOf(path: string): Promise<'folder' | 'file' | 'none'> {
  try {
    return (await stat(path)).isDirectory() ? 'folder' : 'file'
  } catch {
    return 'none'
  }
}

type Parsed = {
  files: string[]
  format: Format
  out?: string
  options: BillOptions
  rules?: string
  classification?: string
  settings?: string
  locations?: string
}

function parse(argv: string[]): Parsed | 'help' {
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        format: { type: 'string', short: 'f' },
        out: { type: 'string', short: 'o' },
        units: { type: 'string' },
        'drawing-units': { type: 'string' },
        'split-by': { type: 'string' },
        rules: { type: 'string' },
        classification: { type: 'string' },
        settings: { type: 'string' },
        locations: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    })
  } catch (error) {
    const { code } = error as { code?: string }
    const option = /'([^']+)'/.exec(String((error as Error).message))?.[1]
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError(`unknown option ${option}`)
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE')
      throw new UsageError(`option ${option?.split(' ')[0] ?? ''} needs a value`)
    throw new UsageError('cannot read the options')
  }
  const { values, positionals: files } = parsed
  if (values.help) return 'help'
  const format = String(values.format ?? 'json') as Format
  if (!FORMATS.includes(format))
    throw new UsageError(`unknown format '${format}' (json, csv or xlsx)`)
  if (files.length === 0) throw new UsageError('no drawing given')
  const options: BillOptions = {}
  if (values.units !== undefined) {
    if (!SYSTEMS.includes(values.units as UnitSystem))
      throw new UsageError(`unknown units '${values.units}' (metric, imperial or drawing)`)
    options.units = values.units as UnitSystem
  }
  const stated = values['drawing-units']
  if (stated !== undefined) {
    if (!STATED_UNITS.includes(stated as StatedUnit))
      throw new UsageError(`unknown drawing units '${stated}' (${STATED_UNITS.join(', ')})`)
    options.drawingUnits = stated as StatedUnit
  }
  if (typeof values['split-by'] === 'string') {
    options.splitBy = values['split-by']
      .split(',')
      .map((tag) => tag.trim())
      .filter(Boolean)
  }
  const out = typeof values.out === 'string' ? values.out : undefined
  const rules = typeof values.rules === 'string' ? values.rules : undefined
  const classification =
    typeof values.classification === 'string' ? values.classification : undefined
  if (classification !== undefined && rules === undefined)
    throw new UsageError('--classification needs --rules')
  const settings = typeof values.settings === 'string' ? values.settings : undefined
  if (settings !== undefined && rules === undefined)
    throw new UsageError('--settings needs --rules')
  const locations = typeof values.locations === 'string' ? values.locations : undefined
  return { files, format, out, options, rules, classification, settings, locations }
}

/** Where each drawing's BOQ goes: a path, or undefined for stdout. */
async function targets(
  { here, at }: Command,
  { files, format, out }: Parsed,
): Promise<(file: string) => string | undefined> {
  const named = (folder: string) => (file: string) =>
    join(folder, `${basename(file, extname(file))}.boq.${format}`)
  if (out === undefined) return format === 'xlsx' ? named(here) : () => undefined
  const kind = await kindOf(at(out))
  const folder = kind === 'folder' || out.endsWith('/') || (files.length > 1 && kind === 'none')
  if (files.length > 1 && !folder) {
    throw new UsageError(
      `--out ${out} is a file, but ${files.length} drawings were given: name a folder (ending in /)`,
    )
  }
  if (files.length > 1 && /\.(json|csv|xlsx)$/i.test(out) && kind === 'none') {
    throw new UsageError(
      `--out ${out} looks like a file name, but ${files.length} drawings were given: name a folder (ending in /)`,
    )
  }
  if (!folder) return () => at(out)
  await mkdir(at(out), { recursive: true })
  return named(at(out))
}

/**
 * Runs `boq <argv>`: the exit code HELP lists. Every line goes to `io`, never to the process's own
 * streams; an unexpected error is one line too (`boq: <reason>`, exit 1).
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const here = typedIn(io.env, io.cwd)
  const command: Command = { io, here, at: (path) => resolve(here, path) }
  try {
    return await run(command, argv)
  } catch (error) {
    io.stderr.write(`boq: ${error instanceof Error ? error.message : String(error)}\n`)
    return 1
  }
}

async function run(command: Command, argv: string[]): Promise<number> {
  const { io, at } = command
  const comparing = argv[0] === 'compare'
  let parsed: Parsed | 'help'
  let target: (file: string) => string | undefined = () => undefined
  let pricing: (Pricing & { settings?: BillSettings }) | undefined
  let locations: LocationRow[] | undefined
  try {
    parsed = parse(comparing ? argv.slice(1) : argv)
    if (parsed !== 'help' && comparing && parsed.files.length !== 2) {
      throw new UsageError(
        `compare takes two drawings, the older first (got ${parsed.files.length})`,
      )
    }
    if (parsed !== 'help' && comparing && parsed.rules !== undefined)
      throw new UsageError('compare does not take --rules')
    // Before --out's folder is made: a bad rules file leaves nothing written.
    if (parsed !== 'help' && parsed.rules !== undefined)
      pricing = await readPricing(parsed.rules, parsed.classification, at)
    if (pricing && parsed !== 'help' && parsed.settings !== undefined)
      pricing = { ...pricing, settings: await readSettings(parsed.settings, at) }
    if (parsed !== 'help' && parsed.locations !== undefined)
      locations = await readLocationsFile(parsed.locations, at)
    if (parsed !== 'help' && !comparing) target = await targets(command, parsed)
  } catch (error) {
    if (error instanceof RulesFileError) {
      io.stderr.write(`boq: ${error.message}\n`)
      return 2
    }
    if (!(error instanceof UsageError)) throw error
    io.stderr.write(`boq: ${error.message}\n${USAGE}\n`)
    return 2
  }
  if (parsed === 'help') {
    io.stdout.write(HELP)
    return 0
  }
  return comparing
    ? compare(command, parsed, locations)
    : extractEach(command, parsed, target, pricing, locations)
}

/** `boq drawing…`: each drawing's BOQ, to its file or to stdout. */
async function extractEach(
  { io, at }: Command,
  parsed: Parsed,
  target: (file: string) => string | undefined,
  pricing?: Pricing & { settings?: BillSettings },
  locations?: LocationRow[],
): Promise<number> {
  const { files, format, options } = parsed
  const engine = createBoqEngine({ maxFileBytes: parseMaxFileBytes(io.env) })
  let failed = 0
  const toStdout: Boq[] = []
  try {
    for (const file of files) {
      try {
        const bytes = new Uint8Array(await readFile(at(file)))
        const boq = await engine.extract({
          bytes,
          fileName: basename(file),
          options,
          ...(locations ? { locations } : {}),
        })
        if (pricing) {
          const { rules, classification, settings } = pricing
          boq.priced = priceBill(boq, rules, classification, settings ? { settings } : {})
        }
        const path = target(file)
        if (path === undefined) {
          toStdout.push(boq)
        } else {
          await writeFile(path, await render(boq, format))
          io.stderr.write(`${file}: BOQ written to ${path}\n`)
        }
        printWarnings(io, file, [...boq.warnings, ...(boq.priced?.warnings ?? [])])
      } catch (error) {
        failed++
        io.stderr.write(`${line(file, error)}\n`)
      }
    }
  } finally {
    await engine.close()
  }
  if (toStdout.length > 0) {
    if (format === 'json') {
      const value = files.length === 1 ? toStdout[0] : toStdout
      io.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
    } else {
      io.stdout.write(toStdout.map((boq) => toCsv(boq)).join('\n'))
    }
  }
  return failed > 0 ? 1 : 0
}

/** `boq compare old new`: both drawings read with the same options, then their change bill. */
async function compare(
  { io, here, at }: Command,
  parsed: Parsed,
  locations?: LocationRow[],
): Promise<number> {
  const { files, format, out, options } = parsed
  const engine = createBoqEngine({ maxFileBytes: parseMaxFileBytes(io.env) })
  const bills: Boq[] = []
  try {
    for (const file of files) {
      try {
        const bytes = new Uint8Array(await readFile(at(file)))
        const input = {
          bytes,
          fileName: basename(file),
          options,
          ...(locations ? { locations } : {}),
        }
        bills.push(await engine.extract(input))
      } catch (error) {
        io.stderr.write(`${line(file, error)}\n`)
        return 1
      }
    }
  } finally {
    await engine.close()
  }
  const [before, after] = bills as [Boq, Boq]
  printWarnings(io, files[0], before.warnings)
  printWarnings(io, files[1], after.warnings)
  const side = (file: string) => ({ jobId: null, fileName: basename(file), versionNumber: null })
  const changes = { from: side(files[0]), to: side(files[1]), ...compareBills(before, after) }
  const rendered =
    format === 'xlsx'
      ? await changeBillXlsx(changes)
      : format === 'csv'
        ? changeBillCsv(changes)
        : `${JSON.stringify(changes, null, 2)}\n`
  const path =
    out !== undefined
      ? at(out)
      : format === 'xlsx'
        ? join(here, `${basename(files[1], extname(files[1]))}.changes.xlsx`)
        : undefined
  if (path === undefined) {
    io.stdout.write(rendered)
  } else {
    await writeFile(path, rendered)
    io.stderr.write(`change bill written to ${path}\n`)
  }
  return 0
}

function printWarnings(io: CliIo, file: string, warnings: readonly string[]): void {
  for (const line of warningLines(file, warnings)) io.stderr.write(`${line}\n`)
}
