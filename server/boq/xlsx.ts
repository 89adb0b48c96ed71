import ExcelJS from 'exceljs'
import { quantityTables, summaryRows } from './rows.ts'
import type { Boq } from './schema.ts'

const NUMBER_FORMAT = '#,##0.000'
const COUNT_FORMAT = '#,##0'

/** A summary sheet and one sheet per quantity kind; units in the headers, numbers as numbers. */
export async function toXlsx(boq: Boq): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook()
  book.creator = 'BOQ'
  const summary = book.addWorksheet('Summary')
  summary.columns = [
    { header: 'Item', key: 'item', width: 36 },
    { header: 'Value', key: 'value', width: 60 },
  ]
  for (const [item, value] of summaryRows(boq)) {
    const row = summary.addRow([item, value])
    if (typeof value === 'number')
      row.getCell(2).numFmt = Number.isInteger(value) ? COUNT_FORMAT : NUMBER_FORMAT
    row.getCell(2).alignment = { horizontal: 'left' }
  }
  summary.getRow(1).font = { bold: true }

  for (const table of quantityTables(boq)) {
    const sheet = book.addWorksheet(table.name)
    sheet.columns = table.headers.map((header, i) => ({
      header,
      width: Math.max(12, header.length + 2),
      style: table.numeric[i]
        ? {
            numFmt: /^Count$|Closed polylines$|^Hatches$|filled|nested/i.test(header)
              ? COUNT_FORMAT
              : NUMBER_FORMAT,
          }
        : {},
    }))
    for (const row of table.rows) sheet.addRow(row)
    sheet.getRow(1).font = { bold: true }
    sheet.views = [{ state: 'frozen', ySplit: 1 }]
    if (table.rows.length > 0) {
      sheet.autoFilter = {
        from: { row: 1, column: 1 },
        to: { row: 1, column: table.headers.length },
      }
    }
  }
  const buffer = await book.xlsx.writeBuffer()
  return new Uint8Array(buffer as ArrayBuffer)
}
