import { stringify } from 'csv-stringify/sync'
import { quantityTables } from './rows.ts'
import type { Boq } from './schema.ts'

/**
 * One CSV table: the XLSX sheets' rows one after another, the sheet's name in the first column,
 * columns the union of the sheets' headers (units in them), numbers unformatted.
 */
export function toCsv(boq: Boq): string {
  const tables = quantityTables(boq)
  const headers: string[] = []
  for (const table of tables)
    for (const h of table.headers) if (!headers.includes(h)) headers.push(h)
  const records: (string | number)[][] = [['Section', ...headers]]
  for (const table of tables) {
    for (const row of table.rows) {
      const record: (string | number)[] = [table.name, ...headers.map(() => '')]
      table.headers.forEach((h, i) => {
        const cell = row[i]
        record[1 + headers.indexOf(h)] = cell === null ? '' : cell
      })
      records.push(record)
    }
  }
  return stringify(records)
}
