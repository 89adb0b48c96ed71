/** What a written table is, for the CSV and the workbook alike: its columns, cells and formats. */

export type Cell = string | number | null

/** How a column's numbers are shown: whole counts, or measures with two decimals. */
export type Format = 'text' | 'count' | 'measure'

export type Column = {
  header: string
  /** A function of the row index when it depends on the row (the bill's quantities). */
  format: Format | ((row: number) => Format)
}

/** One table: the XLSX sheet's table and the CSV section show exactly these rows. */
export type Table = {
  name: string
  columns: Column[]
  rows: Cell[][]
  /** Each row's outline level (a group's rows 1, under its line); absent: every row 0. */
  levels?: number[]
  /** Said under the header in the workbook when there are no rows. */
  empty: string
  /** Rows the workbook shows under the table, outside its filter. */
  notes: Cell[][]
}
