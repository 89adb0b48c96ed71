import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import ExcelJS from 'exceljs'
import { afterAll, describe, expect, it } from 'vitest'
import { DxfWriter } from '../../testing/boq/dxf-writer.ts'
import { FIXTURES, fixturePath } from '../../testing/boq/fixtures.ts'
import { knownDrawing } from '../../testing/boq/known-drawing.ts'
import { main } from './cli.ts'
import { SHOWN_WARNINGS, warningLines } from './cli-warnings.ts'

const ROOT = resolve(import.meta.dirname, '../../..')

type Ran = { code: number; stdout: string; stderr: string }

/**
 * `boq <args>` in this process, typed in `cwd` with this process's environment and `env` over it
 * (`undefined` removes a variable): its exit code and what it printed.
 */
async function run(
  args: string[],
  cwd = process.cwd(),
  env: Record<string, string | undefined> = {},
): Promise<Ran> {
  const merged: NodeJS.ProcessEnv = { ...process.env, ...env }
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete merged[name]
  let stdout = ''
  let stderr = ''
  const code = await main(args, {
    cwd,
    env: merged,
    stdout: {
      write: (chunk) => {
        stdout += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')
      },
    },
    stderr: {
      write: (text) => {
        stderr += text
      },
    },
  })
  return { code, stdout, stderr }
}

/** Temporary folders, removed after the file's tests; then the folders made to hold them. */
const made: string[] = []
const emptied: string[] = []
afterAll(() => {
  for (const folder of made) rmSync(folder, { recursive: true, force: true })
  for (const folder of emptied) {
    try {
      rmdirSync(folder)
    } catch {
      // Not empty: another run's folders are in it, and that run removes them.
    }
  }
})
function tempFolder(parent = tmpdir()): string {
  const folder = mkdtempSync(join(parent, 'boq-cli-'))
  made.push(folder)
  return folder
}

/** A drawing whose bill has `loops` warnings of blocks containing themselves, and two xrefs'. */
function drawingWithWarnings(loops: number): string {
  const w = new DxfWriter()
  w.insunits = 6
  w.xref('SITE', 'site.dwg')
  w.xref('GRID', 'grid.dwg')
  for (let i = 1; i <= loops; i++) {
    w.block(`LOOP${i}`, (to, owner) => w.insert(to, owner, '0', `LOOP${i}`, [5, 0]))
  }
  const { to, owner } = w.target('model')
  w.insert(to, owner, 'Xrefs', 'SITE', [0, 0])
  w.insert(to, owner, 'Xrefs', 'GRID', [0, 0])
  for (let i = 1; i <= loops; i++) w.insert(to, owner, '0', `LOOP${i}`, [i, 0])
  w.line(to, owner, 'Walls', [0, 0], [10, 0])
  return w.toString()
}

// Every test reads drawings with the engine's workers, each with files of its own, side by side:
// generous limits, for a busy machine, that only stop a hang. The command as its own process
// (npm run boq, npx boq, node bin.ts) is in bin.test.ts.
describe('the command line', { timeout: 120_000, concurrent: true }, () => {
  const dir = tempFolder()
  const known = join(dir, 'known.dxf')
  writeFileSync(known, knownDrawing())
  const pdf = join(dir, 'plan.dwg')
  writeFileSync(pdf, '%PDF-1.4\n')
  const empty = join(dir, 'empty.dwg')
  writeFileSync(empty, '')

  it('compares two drawings: the change bill as JSON, CSV or XLSX, exit 0', async () => {
    const older = join(FIXTURES, '2004_HatchG.dwg')
    const newer = join(FIXTURES, '2000_TS1.dwg')
    const json = await run(['compare', older, newer])
    expect(json.code).toBe(0)
    const changes = JSON.parse(json.stdout)
    expect(changes.from).toEqual({ jobId: null, fileName: '2004_HatchG.dwg', versionNumber: null })
    expect(changes.lines).toContainEqual(
      expect.objectContaining({ description: 'some block', before: 0, after: 1, state: 'added' }),
    )
    const csv = await run(['compare', older, newer, '--format', 'csv'])
    // 2000_TS1's layer 0 holds spline 225, AutoCAD's curve through five points: 14.065 in.
    expect(csv.stdout).toMatch(/^Changes,B7,Splines on layer 0,0,1\.1720\d*,1\.1720\d*,,ft,added$/m)
    expect(csv.stdout).toMatch(/^Changes,B6,Polylines on layer 0,4\.43\d*,1\.20\d*,-3\.23\d*/m)
    const xlsx = await run(['compare', older, newer, '--format', 'xlsx'], dir)
    expect(xlsx.code).toBe(0)
    const book = new ExcelJS.Workbook()
    await book.xlsx.readFile(join(dir, '2000_TS1.changes.xlsx'))
    expect(book.worksheets.map((sheet) => sheet.name)).toEqual(['Changes'])
    const alone = await run(['compare', older])
    expect(alone.code).toBe(2)
    expect(alone.stderr).toMatch(/compare takes two drawings/)
    const bad = await run(['compare', older, pdf])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain('plan.dwg')
  })

  it('prints the JSON BOQ to stdout and exits 0', async () => {
    const { code, stdout, stderr } = await run([known])
    expect(code).toBe(0)
    expect(stderr).toBe('')
    const boq = JSON.parse(stdout)
    expect(boq).toMatchObject({ schema: 'boq', version: 2, source: { fileName: 'known.dxf' } })
  })

  it('writes CSV and XLSX to a file or folder', async () => {
    const csv = join(dir, 'out.csv')
    expect((await run([known, '--format', 'csv', '--out', csv])).code).toBe(0)
    expect(readFileSync(csv, 'utf8').split('\n')[0]).toMatch(/^Section,/)
    const folder = join(dir, 'out')
    expect((await run([known, known, '--format', 'xlsx', '--out', folder])).code).toBe(0)
    const book = new ExcelJS.Workbook()
    await book.xlsx.readFile(join(folder, 'known.boq.xlsx'))
    expect(book.worksheets.map((s) => s.name)).toEqual([
      'Bill',
      'Blocks by layer',
      'References',
      'Lengths',
      'Areas',
      'Not measured',
    ])
  })

  it('one readable line per failed file, no stack trace, other files still done, exit 1', async () => {
    const { code, stdout, stderr } = await run([pdf, known, empty, join(dir, 'missing.dwg')])
    expect(code).toBe(1)
    expect(stderr.trim().split('\n')).toEqual([
      `${pdf}: not a DWG file (it looks like a PDF document)`,
      `${empty}: not a DWG file (the file is empty)`,
      `${join(dir, 'missing.dwg')}: no such file`,
    ])
    expect(stderr).not.toMatch(/\n\s+at /)
    expect(JSON.parse(stdout)).toHaveLength(1)
  })

  it('bad usage exits 2 with one line saying what is wrong, then the usage line', async () => {
    expect((await run([])).code).toBe(2)
    const { code, stderr } = await run([known, '--format', 'pdf'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/unknown format 'pdf'/)
    const unknown = await run([known, '--colour', 'red'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr.trim().split('\n')).toEqual([
      'boq: unknown option --colour',
      expect.stringMatching(/^usage: boq <drawing>/),
    ])
    const units = await run([known, '--units', 'furlongs'])
    expect(units.stderr).toMatch(/unknown units 'furlongs' \(metric, imperial or drawing\)/)
    const stated = await run([known, '--drawing-units', 'yd'])
    expect(stated.stderr).toMatch(/unknown drawing units 'yd' \(mm, cm, m, in, ft\)/)
  })

  it('--help lists every option with examples', async () => {
    const { code, stdout } = await run(['--help'])
    expect(code).toBe(0)
    for (const option of [
      '--format',
      '--out',
      '--units',
      '--drawing-units',
      '--split-by',
      '--rules',
      '--classification',
      '--help',
    ])
      expect(stdout).toContain(option)
    expect(stdout).toMatch(/examples:\n\s+boq plan\.dwg/)
    expect(stdout).toContain('BOQ_MAX_FILE_MB')
  })

  it('--out naming a file with several drawings is an error; XLSX without --out says where it went', async () => {
    const { code, stderr } = await run([
      known,
      known,
      '--format',
      'csv',
      '--out',
      join(dir, 'x.csv'),
    ])
    expect(code).toBe(2)
    expect(stderr).toMatch(/looks like a file name, but 2 drawings were given/)
    const here = tempFolder()
    const written = await run([known, '--format', 'xlsx'], here)
    expect(written.code).toBe(0)
    expect(written.stderr.trim()).toBe(`${known}: BOQ written to ${join(here, 'known.boq.xlsx')}`)
  })

  it('--units, --drawing-units and --split-by reach the bill', async () => {
    const imperial = JSON.parse((await run([known, '--units', 'imperial'])).stdout)
    expect(imperial.units).toMatchObject({ system: 'imperial', length: 'ft', area: 'ft²' })
    const split = JSON.parse((await run([known, '--split-by', 'TYPE'])).stdout)
    const doors = split.bill.filter((l: { block?: string }) => l.block === 'DOOR')
    expect(doors.map((l: { values: Record<string, string> }) => l.values.TYPE)).toEqual([
      '',
      'D1',
      'D2',
    ])
  })

  it('--rules prices the bill: the priced bill in the JSON, first in the workbook and the CSV', async () => {
    const rules = join(dir, 'rules.csv')
    writeFileSync(
      rules,
      [
        'match,block,layer,code,description,unit,quantity,rate',
        'count,DOOR,,23.10,Doors,nr,,150',
        'area,,Rooms,22.30,,m,perimeter,4',
      ].join('\n'),
    )
    const codes = join(dir, 'codes.csv')
    writeFileSync(codes, 'code,title,parent\n22,Structure,\n22.30,Skirting,22\n23,Doors,\n')
    const typed = ['--rules', 'rules.csv', '--classification', 'codes.csv']
    const json = await run([known, ...typed], dir)
    expect(json.code).toBe(0)
    const boq = JSON.parse(json.stdout)
    expect(boq.bill.length).toBeGreaterThan(0)
    const doors = boq.bill
      .filter((l: { block?: string }) => l.block === 'DOOR')
      .reduce((sum: number, l: { quantity: number }) => sum + l.quantity, 0)
    const [skirting, door] = boq.priced.items
    expect(door).toMatchObject({ code: '23.10', quantity: doors, amount: doors * 150 })
    // The 10 × 5 room's outline, in the bill's unit.
    expect(skirting).toMatchObject({ code: '22.30', description: 'Skirting', unit: 'm' })
    expect(skirting.quantity).toBeCloseTo(30 * boq.units.lengthFactor, 9)
    expect(boq.priced.sections.map((s: { title: string }) => s.title)).toEqual([
      'Structure',
      'Doors',
    ])
    expect(boq.priced.notClassified.length).toBeGreaterThan(0)
    const xlsx = join(dir, 'priced.xlsx')
    expect(
      (await run([known, ...typed, '--format', 'xlsx', '--out', 'priced.xlsx'], dir)).code,
    ).toBe(0)
    const book = new ExcelJS.Workbook()
    await book.xlsx.readFile(xlsx)
    const names = book.worksheets.map((s) => s.name)
    expect([names[0], names[1], names.at(-1)]).toEqual(['Priced bill', 'Bill', 'Rules'])
    const csv = await run([known, '--rules', rules, '--format', 'csv'])
    expect(csv.stdout.split('\n')[1]).toMatch(/^Priced bill,22,1,22\.30,/)
  })

  it('a bad rules file: one line naming its row, exit 2, nothing written', async () => {
    const here = tempFolder()
    writeFileSync(
      join(here, 'rules.csv'),
      'match,layer,code,quantity\nlength,Walls,W1,length\nlength,Slabs,S1,length *\n',
    )
    const out = join(here, 'boqs')
    const bad = await run(
      [known, '--rules', 'rules.csv', '--format', 'xlsx', '--out', 'boqs/'],
      here,
    )
    expect(bad.code).toBe(2)
    expect(bad.stdout).toBe('')
    const lines = bad.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^boq: rules\.csv: row 3: /)
    expect(existsSync(out)).toBe(false)
    const xlsx = await run([known, '--rules', 'rules.csv', '--format', 'xlsx'], here)
    expect(xlsx.code).toBe(2)
    expect(existsSync(join(here, 'known.boq.xlsx'))).toBe(false)
    const missing = await run([known, '--rules', 'none.json'], here)
    expect([missing.code, missing.stderr.trim()]).toEqual([2, 'boq: none.json: no such file'])
    const alone = await run([known, '--classification', 'codes.csv'], here)
    expect(alone.code).toBe(2)
    expect(alone.stderr).toMatch(/--classification needs --rules/)
  })

  it('keeps BOQ_MAX_FILE_MB', async () => {
    const { code, stderr } = await run([known], undefined, { BOQ_MAX_FILE_MB: '0.001' })
    expect(code).toBe(1)
    expect(stderr).toMatch(/known\.dxf: too large \(limit 0 MB; the file has/)
  })

  it('a truncated DWG: "truncated or corrupt (…)"', async () => {
    const cut = join(dir, 'cut.dwg')
    writeFileSync(cut, readFileSync(join(FIXTURES, 'example_2018.dwg')).subarray(0, 60_000))
    const { code, stderr } = await run([cut])
    expect(code).toBe(1)
    expect(stderr.trim()).toMatch(
      new RegExp(`^${cut.replace(/[.\\/]/g, '\\$&')}: truncated or corrupt \\(LibreDWG: .+\\)$`),
    )
  })

  it('--help lists the exit codes, and says paths are taken from where the command is typed', async () => {
    const { stdout } = await run(['--help'])
    const codes = stdout.slice(stdout.indexOf('exit codes:'))
    expect(codes).toMatch(/^exit codes:\n {2}0 {2}every drawing gave its bill/)
    expect(codes).toMatch(/\n {2}1 {2}a drawing could not be read or its bill not written/)
    expect(codes).toMatch(/\n {2}2 {2}bad usage/)
    expect(stdout).toMatch(/relative to the folder the command was typed in/)
  })

  it('started by another npm script, takes paths from where it runs, not from that script’s INIT_CWD', async () => {
    const elsewhere = tempFolder()
    copyFileSync(fixturePath('sample_2018.dwg'), join(elsewhere, 'plan.dwg'))
    const inherited = await run(['plan.dwg', '--format', 'xlsx'], elsewhere, {
      INIT_CWD: ROOT,
      npm_lifecycle_event: 'test',
    })
    expect(inherited.stderr).toBe(`plan.dwg: BOQ written to ${join(elsewhere, 'plan.boq.xlsx')}\n`)
    expect(inherited.code).toBe(0)
    // Run by npm as `npm run boq`, INIT_CWD is where the command was typed.
    const typed = await run(['plan.dwg', '--format', 'xlsx', '--out', 'typed.xlsx'], ROOT, {
      INIT_CWD: elsewhere,
      npm_lifecycle_event: 'boq',
    })
    expect(typed.stderr).toBe(`plan.dwg: BOQ written to ${join(elsewhere, 'typed.xlsx')}\n`)
    expect(typed.code).toBe(0)
  })

  it('an unexpected error: one line "boq: <reason>", no stack trace, exit 1', async () => {
    const { code, stdout, stderr } = await run([known], undefined, { BOQ_MAX_FILE_MB: 'lots' })
    expect([code, stdout]).toEqual([1, ''])
    expect(stderr).toBe('boq: BOQ_MAX_FILE_MB must be a positive number (got "lots").\n')
  })

  it("prints the bill's warnings on stderr, one line each, exit 0; compare prints both drawings'", async () => {
    const xrefs = join(dir, 'xrefs.dxf')
    writeFileSync(xrefs, drawingWithWarnings(0))
    const { code, stdout, stderr } = await run([xrefs])
    expect(code).toBe(0)
    const { warnings } = JSON.parse(stdout) as { warnings: string[] }
    expect(warnings).toContainEqual(expect.stringMatching(/references 2 other drawings/))
    expect(stderr).toBe(warnings.map((warning) => `${xrefs}: warning: ${warning}\n`).join(''))

    const written = await run([known, xrefs, '--format', 'csv', '--out', `${dir}/`])
    expect(written.code).toBe(0)
    expect(written.stderr.trim().split('\n')).toEqual([
      `${known}: BOQ written to ${join(dir, 'known.boq.csv')}`,
      `${xrefs}: BOQ written to ${join(dir, 'xrefs.boq.csv')}`,
      ...warnings.map((warning) => `${xrefs}: warning: ${warning}`),
    ])

    const compared = await run(['compare', known, xrefs])
    expect(compared.code).toBe(0)
    expect(compared.stderr).toBe(
      warnings.map((warning) => `${xrefs}: warning: ${warning}\n`).join(''),
    )
  })

  it('more than ten warnings: the first ten, then one line with the count of the rest', async () => {
    const loops = join(dir, 'loops.dxf')
    writeFileSync(loops, drawingWithWarnings(15))
    const { code, stdout, stderr } = await run([loops])
    expect(code).toBe(0)
    const { warnings } = JSON.parse(stdout) as { warnings: string[] }
    expect(warnings.length).toBeGreaterThan(SHOWN_WARNINGS + 1)
    expect(stderr.trim().split('\n')).toEqual([
      ...warnings.slice(0, 10).map((warning) => `${loops}: warning: ${warning}`),
      `${loops}: … and ${warnings.length - 10} more warnings`,
    ])
  })

  it('warning lines: ten shown, "1 more warning", and a name with line breaks stays one line', () => {
    const ten = Array.from({ length: 10 }, (_, i) => `Warning ${i + 1}.`)
    expect(warningLines('a.dwg', ten)).toEqual(ten.map((w) => `a.dwg: warning: ${w}`))
    expect(warningLines('a.dwg', [...ten, 'Eleventh.']).slice(10)).toEqual([
      'a.dwg: … and 1 more warning',
    ])
    expect(warningLines('a.dwg', ['Block "A\r\nB\u001b[2J" contains itself.'])).toEqual([
      'a.dwg: warning: Block "A B [2J" contains itself.',
    ])
    expect(warningLines('a.dwg', [])).toEqual([])
  })
})
