import type ExcelJS from 'exceljs'
import type { ProjectMeasuredLine } from '#contract/project-bills.ts'
import { fitted } from '../../boq/write/rows.ts'
import {
  decimalsFormat,
  fitColumns,
  font,
  type Sentences,
  setFooter,
  setUpPrinting,
  writeCell,
  writeHeaderBlock,
  writeSentence,
} from '../../boq/write/xlsx-cells.ts'
import type { ProjectBillFiles } from './project-task.ts'
import { type DrawingColumn, drawingColumns, measuredQuantities } from './summary-rows.ts'

export const MEASURED_SHEET = 'Measured'

const KIND_TITLES = { count: 'Counts', length: 'Linework', area: 'Areas' } as const

/**
 * The Measured sheet: the drawings' measured lines summed, by kind (counts, linework, areas),
 * each with a column per drawing and its quantity as a live SUM of them; what the items were
 * priced from, and what a bill without rules bills.
 */
export function writeMeasuredSheet(sheet: ExcelJS.Worksheet, files: ProjectBillFiles): void {
  const sentences: Sentences = new Set()
  const drawings = drawingColumns(files.billed)
  const headers = ['Description', 'Unit', ...drawings.map((one) => one.header), 'Quantity']
  const units = files.figures.units
  const headerEnd = writeHeaderBlock(
    sheet,
    `${files.name}: measured`,
    units ? [['Units', `${units.length}, ${units.area}`]] : [],
    headers.length,
    sentences,
  )
  const headerRow = headerEnd + 2
  const header = sheet.getRow(headerRow)
  headers.forEach((text, c) => {
    const cell = header.getCell(c + 1)
    cell.value = fitted(text)
    cell.alignment = { horizontal: c >= 2 ? 'right' : 'left', wrapText: true, vertical: 'top' }
  })
  header.font = font({ bold: true })
  let r = headerRow
  for (const kind of ['count', 'length', 'area'] as const) {
    const lines = files.measured.filter((line) => line.kind === kind)
    if (lines.length === 0) continue
    r++
    writeCell(sheet.getCell(r, 1), KIND_TITLES[kind], 'text')
    sheet.getRow(r).font = font({ bold: true })
    for (const line of lines) writeLine(sheet, ++r, line, drawings)
  }
  if (files.measured.length === 0) {
    writeSentence(
      sheet,
      ++r,
      'No measured lines: no drawing of this bill is billed yet.',
      headers.length,
      sentences,
    )
  }
  sheet.views = [{ state: 'frozen', ySplit: headerRow, xSplit: 2 }]
  fitColumns(sheet, sentences)
  for (let c = 3; c < 3 + drawings.length; c++) {
    sheet.getColumn(c).width = Math.min(sheet.getColumn(c).width ?? 12, 16)
  }
  setUpPrinting(sheet, headerRow)
  setFooter(sheet, `${files.name}: measured`)
}

function writeLine(
  sheet: ExcelJS.Worksheet,
  r: number,
  line: ProjectMeasuredLine,
  drawings: DrawingColumn[],
): void {
  writeCell(sheet.getCell(r, 1), line.description, 'text')
  writeCell(sheet.getCell(r, 2), line.unit, 'text')
  const format = decimalsFormat(line.kind === 'count' ? 0 : 2)
  measuredQuantities(line, drawings).forEach((quantity, i) => {
    const cell = sheet.getCell(r, 3 + i)
    writeCell(cell, quantity, 'measure')
    cell.numFmt = format
  })
  const total = sheet.getCell(r, 3 + drawings.length)
  const first = sheet.getColumn(3).letter
  const last = sheet.getColumn(2 + drawings.length).letter
  total.value =
    drawings.length > 0
      ? { formula: `SUM(${first}${r}:${last}${r})`, result: line.quantity }
      : line.quantity
  total.numFmt = format
}
