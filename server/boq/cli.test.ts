import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { FIXTURES, haveFixtures } from './testing/fixtures.ts'
import { knownDrawing } from './testing/known-drawing.ts'

const CLI = resolve(import.meta.dirname, 'cli.ts')

function run(
  args: string[],
  cwd?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd, maxBuffer: 64 * 1024 * 1024 },
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

  it('prints the JSON BOQ to stdout and exits 0', async () => {
    const { code, stdout, stderr } = await run([known])
    expect(code).toBe(0)
    expect(stderr).toBe('')
    const boq = JSON.parse(stdout)
    expect(boq).toMatchObject({ schema: 'boq', version: 1, source: { fileName: 'known.dxf' } })
  })

  it('writes CSV and XLSX to a file or folder', async () => {
    const csv = join(dir, 'out.csv')
    expect((await run([known, '--format', 'csv', '--out', csv])).code).toBe(0)
    expect(readFileSync(csv, 'utf8').split('\n')[0]).toMatch(/^Section,Block,Layer,Count,/)
    const folder = join(dir, 'out')
    expect((await run([known, known, '--format', 'xlsx', '--out', folder])).code).toBe(0)
    const book = new ExcelJS.Workbook()
    await book.xlsx.readFile(join(folder, 'known.boq.xlsx'))
    expect(book.worksheets.map((s) => s.name)).toEqual([
      'Summary',
      'Blocks',
      'References',
      'Lengths',
      'Areas',
    ])
    expect(book.getWorksheet('Lengths')?.getRow(1).values).toContain('Length (m)')
    expect(typeof book.getWorksheet('Lengths')?.getRow(2).getCell(4).value).toBe('number')
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

  it('bad usage exits 2', async () => {
    expect((await run([])).code).toBe(2)
    const { code, stderr } = await run([known, '--format', 'pdf'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/unknown format 'pdf'/)
  })

  it.runIf(haveFixtures)('a truncated DWG: "truncated or corrupt (…)"', async () => {
    const cut = join(dir, 'cut.dwg')
    writeFileSync(cut, readFileSync(join(FIXTURES, 'example_2018.dwg')).subarray(0, 60_000))
    const { code, stderr } = await run([cut])
    expect(code).toBe(1)
    expect(stderr.trim()).toMatch(
      new RegExp(`^${cut.replace(/[.\\/]/g, '\\$&')}: truncated or corrupt \\(LibreDWG: .+\\)$`),
    )
  })
})
