import type ExcelJS from 'exceljs'

/**
 * Rows of a group one outline level in, under their group's line (the summary above them, as a
 * reader expects a heading), and their description (`column`) set a step in: the sheet shows them
 * grouped and can fold them away.
 */
export function outlineRows(
  sheet: ExcelJS.Worksheet,
  firstRow: number,
  levels: readonly number[] | undefined,
  column: number,
): void {
  if (!levels?.some((level) => level > 0)) return
  sheet.properties.outlineProperties = { summaryBelow: false, summaryRight: false }
  levels.forEach((level, i) => {
    if (level === 0) return
    const row = sheet.getRow(firstRow + i)
    row.outlineLevel = level
    const cell = row.getCell(column)
    cell.alignment = { ...cell.alignment, indent: 2 * level }
  })
}
