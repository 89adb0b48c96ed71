import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from './testing/fixtures.ts'
import { knownDrawing } from './testing/known-drawing.ts'

const CLI = resolve(import.meta.dirname, 'cli.ts')

function run(
  args: string[],
  cwd?: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...env } },
      (error, stdout, stderr) => {
        done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr })
      },
    )
  })
}

describe('the command line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'boq-cli-'))
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
    expect(csv.stdout).toMatch(/^Changes,B1,Linework on layer 0,4\.43\d*,5\.18\d*,0\.75/m)
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
    const here = mkdtempSync(join(tmpdir(), 'boq-cli-cwd-'))
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
})
