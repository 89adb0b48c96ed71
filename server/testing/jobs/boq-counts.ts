import ExcelJS from 'exceljs'

/**
 * Block counts read back from a BOQ workbook (sheet 'Blocks by layer', 'Blocks' before the bill
 * came: a 'Block' column and a 'Count…' column, one row per block and layer): block name → total
 * count.
 */
export async function blockCountsFromXlsx(bytes: Uint8Array): Promise<Map<string, number>> {
  const book = new ExcelJS.Workbook()
  await book.xlsx.load(
    bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
  )
  const sheet = book.getWorksheet('Blocks by layer') ?? book.getWorksheet('Blocks')
  if (!sheet)
    throw new Error(`No blocks sheet; sheets: ${book.worksheets.map((s) => s.name).join(', ')}`)
  const headers = (sheet.getRow(1).values as unknown[]).map((v) => String(v ?? ''))
  const nameColumn = headers.indexOf('Block')
  const countColumn = headers.findIndex((h) => /^Count/.test(h))
  if (nameColumn < 0 || countColumn < 0)
    throw new Error(`Unexpected headers: ${headers.join(' | ')}`)
  const counts = new Map<string, number>()
  sheet.eachRow((row, index) => {
    if (index === 1) return
    const name = String(row.getCell(nameColumn).value ?? '')
    const count = Number(row.getCell(countColumn).value ?? 0)
    counts.set(name, (counts.get(name) ?? 0) + count)
  })
  return counts
}
