import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { DxfWriter } from '../../testing/boq/dxf-writer.ts'
import { compareBills } from '../compare/compare.ts'
import type { Boq } from '../model/schema.ts'
import { extractBoq } from '../run/extract.ts'
import { toCsv } from '../write/csv.ts'
import { toXlsx } from '../write/xlsx.ts'

// Coordinates no drawing holds (overflowing, infinite, not a number) are damaged geometry: left
// out of the bill, listed under Not measured, warned about; no output holds a non-finite number.

function boqOf(text: string): Boq {
  return extractBoq({ bytes: new TextEncoder().encode(text), fileName: 'damaged.dxf' }, null)
}

/** Two lines whose lengths overflow when added, a closed outline as wide, and a sound line. */
function overflowing(): string {
  const w = new DxfWriter()
  w.insunits = 6
  const { to, owner } = w.target('model')
  w.line(to, owner, 'Big', [0, 0, 0], [1e308, 0, 0])
  w.line(to, owner, 'Big', [0, 1, 0], [1e308, 1, 0])
  const corners = [
    { x: 0, y: 0 },
    { x: 1e200, y: 0 },
    { x: 1e200, y: 1e200 },
  ]
  w.lwpolyline(to, owner, 'Slab', corners, true)
  w.line(to, owner, 'Walls', [0, 0, 0], [4, 0, 0])
  return w.toString()
}

/** Lines whose coordinates are written as numbers a DXF reader turns into infinity or NaN. */
function infinite(): string {
  const w = new DxfWriter()
  w.insunits = 6
  const { to, owner } = w.target('model')
  w.line(to, owner, 'Walls', [0, 0, 0], [3, 0, 0])
  for (const far of ['1e999', 'inf', '-1e999', 'nan']) {
    w.entity(to, owner, 'Walls', 'LINE', 'AcDbLine', [10, 0, 20, 0, 30, 0, 11, far, 21, 0, 31, 0])
  }
  return w.toString()
}

function finiteEverywhere(value: unknown): void {
  if (typeof value === 'number') expect(Number.isFinite(value), String(value)).toBe(true)
  else if (Array.isArray(value)) value.forEach(finiteEverywhere)
  else if (value && typeof value === 'object') Object.values(value).forEach(finiteEverywhere)
}

describe('damaged geometry', () => {
  it('leaves overflowing figures out of the bill, lists them and warns', () => {
    const boq = boqOf(overflowing())
    expect(boq.bill.map((line) => [line.description, line.quantity])).toEqual([
      ['Lines on layer Walls', 4],
    ])
    expect(boq.notMeasured).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'LINE (damaged geometry)', count: 2 }),
        // Listed once, as linework, though its area is damaged too.
        expect.objectContaining({ type: 'POLYLINE (damaged geometry)', count: 1 }),
      ]),
    )
    expect(boq.notMeasured.map((row) => row.type)).not.toContain(
      'closed POLYLINE (damaged geometry)',
    )
    expect(boq.warnings[0]).toMatch(/^The drawing may be damaged: 3 entities have coordinates/)
    finiteEverywhere(boq)
  })

  it('does the same with coordinates written as infinity or not a number', () => {
    const boq = boqOf(infinite())
    expect(boq.bill.map((line) => [line.description, line.quantity])).toEqual([
      ['Lines on layer Walls', 3],
    ])
    expect(boq.notMeasured).toContainEqual(
      expect.objectContaining({ type: 'LINE (damaged geometry)', count: 4 }),
    )
    expect(boq.warnings[0]).toMatch(/^The drawing may be damaged: 4 entities/)
    finiteEverywhere(boq)
  })

  it('writes no non-finite number in the CSV or the workbook, and compares as measured', async () => {
    const boq = boqOf(overflowing())
    expect(toCsv(boq)).not.toMatch(/Infinity|NaN/)
    const book = new ExcelJS.Workbook()
    await book.xlsx.load((await toXlsx(boq)) as unknown as ArrayBuffer)
    book.eachSheet((sheet) =>
      sheet.eachRow((row) =>
        row.eachCell((cell) => {
          if (typeof cell.value === 'number') expect(Number.isFinite(cell.value)).toBe(true)
          else expect(String(cell.value ?? '')).not.toMatch(/Infinity|NaN/)
        }),
      ),
    )
    const sound = boqOf(infinite())
    const comparison = compareBills(sound, boq)
    finiteEverywhere(comparison)
    expect(comparison.lines.map((line) => [line.description, line.state])).toEqual([
      ['Lines on layer Walls', 'changed'],
    ])
  })
})
