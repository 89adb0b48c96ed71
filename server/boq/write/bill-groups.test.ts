import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixture } from '../../testing/boq/fixtures.ts'
import { printedFirstSheet } from '../../testing/boq/libreoffice.ts'
import type { Boq } from '../model/schema.ts'
import { compileRuleSet, priceBill } from '../price/price.ts'
import { createBoqEngine } from '../run/engine.ts'
import { toCsv } from './csv.ts'
import { toXlsx } from './xlsx.ts'

const GROUP = 'Pasted blocks (27 kinds, 29 placed)'

/** 2018_Dynblocks, its doors priced and the rest not classified. */
let boq: Boq
beforeAll(async () => {
  const engine = createBoqEngine({ workers: 1 })
  try {
    boq = await engine.extract({ bytes: fixture('2018_Dynblocks.dwg'), fileName: 'dyn.dwg' })
  } finally {
    await engine.close()
  }
  boq.priced = priceBill(
    boq,
    compileRuleSet([{ match: 'count', block: 'Door*', code: 'D1', description: 'Door', rate: 90 }]),
  )
}, 120_000)

async function workbook(): Promise<ExcelJS.Workbook> {
  const read = new ExcelJS.Workbook()
  await read.xlsx.load((await toXlsx(boq)).buffer as ArrayBuffer)
  return read
}

/** The rows of a sheet from the one whose second cell is `from`, as [level, cells…]. */
function rowsFrom(sheet: ExcelJS.Worksheet, column: number, from: string, count: number) {
  let start = 0
  sheet.eachRow((row, r) => {
    if (!start && row.getCell(column).value === from) start = r
  })
  expect(start, `no row ${from}`).toBeGreaterThan(0)
  return Array.from({ length: count }, (_, i) => sheet.getRow(start + i))
}

describe('pasted blocks, grouped', () => {
  it('the JSON names the group and its 27 lines, each line once in the bill', () => {
    expect(boq.groups).toEqual([
      expect.objectContaining({ name: 'Pasted blocks', description: GROUP, quantity: 29 }),
    ])
    const refs = boq.groups?.[0]?.lines ?? []
    expect(refs).toHaveLength(27)
    const pasted = boq.bill.filter((line) => line.block?.startsWith('A$C'))
    expect(pasted.map((line) => line.ref)).toEqual(refs)
  })

  it('the Bill sheet has the group’s line, then its blocks one outline level in; no block counted twice', async () => {
    const sheet = (await workbook()).getWorksheet('Bill') as ExcelJS.Worksheet
    const [group, first, ...rest] = rowsFrom(sheet, 2, GROUP, 28)
    expect(group?.getCell(1).value).toBeNull()
    expect(group?.getCell(3).value).toBeNull()
    expect(group?.outlineLevel ?? 0).toBe(0)
    expect([first, ...rest].map((row) => row?.outlineLevel)).toEqual(Array(27).fill(1))
    expect(first?.getCell(1).value).toBe('A1')
    expect(first?.getCell(2).alignment?.indent).toBe(2)
    expect(sheet.properties.outlineProperties).toMatchObject({ summaryBelow: false })
    // The Quantity column's counts add up to the bill's count lines, each once.
    let counted = 0
    sheet.eachRow((row) => {
      const ref = row.getCell(1).value
      if (typeof ref === 'string' && /^A\d+$/.test(ref)) counted += Number(row.getCell(3).value)
    })
    const counts = boq.bill.filter((line) => line.kind === 'count')
    expect(counted).toBe(counts.reduce((sum, line) => sum + line.quantity, 0))
  })

  it('the priced sheet lists the not classified pasted blocks under one line', async () => {
    const sheet = (await workbook()).getWorksheet('Priced bill') as ExcelJS.Worksheet
    const [group, ...children] = rowsFrom(sheet, 3, GROUP, 28)
    expect(group?.getCell(4).value).toBeNull()
    expect(children.map((row) => row?.outlineLevel)).toEqual(Array(27).fill(1))
    expect(children.map((row) => row?.getCell(1).value)).toEqual(boq.groups?.[0]?.lines)
  })

  it('the CSV has the group’s line without a quantity, before its lines', () => {
    const [header = [], ...rows] = parse(toCsv(boq), { relax_column_count: true }) as string[][]
    const cells = (row: string[] | undefined, ...names: string[]) =>
      names.map((name) => row?.[header.indexOf(name)])
    const bill = rows.filter((row) => row[0] === 'Bill')
    const at = bill.findIndex((row) => cells(row, 'Description')[0] === GROUP)
    expect(cells(bill[at], 'Item', 'Description', 'Quantity', 'Unit')).toEqual(['', GROUP, '', ''])
    expect(cells(bill[at + 1], 'Item', 'Description')).toEqual(['A1', 'A$C00294823'])
    const notClassified = rows.filter((row) => row[0] === 'Not classified')
    expect(notClassified.filter((row) => row.includes(GROUP))).toHaveLength(1)
  })
})

describe('pasted blocks, as LibreOffice shows the workbook', () => {
  const dir = mkdtempSync(join(tmpdir(), 'boq-groups-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('opens it and shows the group’s line above its blocks', { timeout: 300_000 }, async () => {
    const file = join(dir, 'dyn.xlsx')
    writeFileSync(file, await toXlsx(boq))
    const shown = await printedFirstSheet(dir, file)
    const at = shown.findIndex((row) => row.includes(GROUP))
    expect(at).toBeGreaterThan(0)
    expect(shown[at + 1]).toContain('A$C00294823')
    // The priced item's figures, recalculated: one door at 90.
    expect(shown.some((row) => row.includes('Door') && row.includes('90.00'))).toBe(true)
  })
})
