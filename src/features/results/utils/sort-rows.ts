/** How a table is sorted: on which column, which way (the values of `aria-sort`). */
export type SortDirection = 'ascending' | 'descending'
export type Sort = { column: string; direction: SortDirection }

/** A sort key: numbers sort as numbers, text naturally ('A2' before 'A10', case aside). */
export type SortKey = string | number

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' })

function compareKeys(a: SortKey, b: SortKey): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b
  if (typeof a === 'number') return -1
  if (typeof b === 'number') return 1
  return collator.compare(a, b)
}

/**
 * The rows sorted on `key`, each key worked out once. Ties keep the rows' own order (the bill's),
 * whichever way the sort goes. With `group`, rows are sorted within their group and the groups
 * stay in their own order (ascending, whichever way the sort goes): a bill's counts, lengths and
 * areas are not figures of one scale.
 */
export function sortRows<Row>(
  rows: readonly Row[],
  key: (row: Row) => SortKey,
  direction: SortDirection,
  group: (row: Row) => number = () => 0,
): Row[] {
  const sign = direction === 'ascending' ? 1 : -1
  return rows
    .map((row, index) => ({ row, index, key: key(row), group: group(row) }))
    .sort((a, b) => a.group - b.group || sign * compareKeys(a.key, b.key) || a.index - b.index)
    .map(({ row }) => row)
}

/** Clicking a column's header: sorts on it ascending, or turns it round when it is already sorted on. */
export function nextSort(current: Sort | null, column: string): Sort {
  if (current?.column === column && current.direction === 'ascending') {
    return { column, direction: 'descending' }
  }
  return { column, direction: 'ascending' }
}

/** A filter as it is matched: lower case, spaces collapsed and trimmed. */
function normalise(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim()
}

/** The rows whose text (`textOf`, in any case) holds `filter` as typed; all for no filter. */
export function filterRows<Row>(
  rows: readonly Row[],
  filter: string,
  textOf: (row: Row) => string,
): Row[] {
  const wanted = normalise(filter)
  if (wanted === '') return [...rows]
  return rows.filter((row) => normalise(textOf(row)).includes(wanted))
}
