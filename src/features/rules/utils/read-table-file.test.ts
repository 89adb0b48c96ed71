import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { readTableFile } from './read-table-file'

/** A workbook of these sheets (name → rows of cells), as a spreadsheet program would save it. */
async function workbook(sheets: Record<string, (string | number | boolean | null)[][]>) {
  const book = new ExcelJS.Workbook()
  for (const [name, rows] of Object.entries(sheets)) book.addWorksheet(name).addRows(rows)
  return new Uint8Array(await book.xlsx.writeBuffer())
}

const xlsx = (bytes: Uint8Array<ArrayBuffer>, name = 'rules.xlsx') => new File([bytes], name)

describe('reading a table file in the browser', () => {
  it('reads a workbook’s rules sheet by its header, cells in the table’s column order', async () => {
    const bytes = await workbook({
      notes: [['not this sheet']],
      rules: [
        ['Block', 'MATCH', 'rate', 'ignore'],
        ['Door*', 'count', 450, null],
        [],
        [null, 'length', 12.5, true],
      ],
    })
    expect(await readTableFile('rules', xlsx(bytes))).toEqual([
      ['count', 'Door*', '', '', '', '', '', '', '', '', '', '450', ''],
      ['length', '', '', '', '', '', '', '', '', '', '', '12.5', 'yes'],
    ])
  })

  it('reads a workbook’s first sheet when none is named for the table, and a description as the title', async () => {
    const bytes = await workbook({
      Sheet1: [
        ['code', 'description', 'parent'],
        ['E', 'Electrical', null],
        ['E.1', 'Points', 'E'],
      ],
    })
    expect(await readTableFile('classification', xlsx(bytes, 'codes.xlsx'))).toEqual([
      ['E', 'Electrical', ''],
      ['E.1', 'Points', 'E'],
    ])
  })

  it('reads a CSV as the server does: its separator from the header, a decimal comma after semicolons, quoted text, a formula’s guard', async () => {
    const csv = 'match;quantity;rate\r\ncount;"\'=count*2";"1.234,50"\r\n'
    expect(await readTableFile('rules', new File([csv], 'rules.csv'))).toEqual([
      ['count', '', '', '', '', '', '', '', '', '', '=count*2', '1234.5', ''],
    ])
    const windows = new Uint8Array([...new TextEncoder().encode('code,title\nE,Caf'), 0xe9, 10])
    expect(await readTableFile('classification', new File([windows], 'codes.csv'))).toEqual([
      ['E', 'Café', ''],
    ])
  })

  it('says why a file is not a workbook', async () => {
    await expect(
      readTableFile('rules', xlsx(new TextEncoder().encode('nonsense'))),
    ).rejects.toThrow('the file is not an XLSX workbook')
  })
})
