import { Fragment } from 'react'
import type { RowWithId } from '../utils/table-rows'
import { focusRow } from './editor-table'

/** How many rows are named one by one; the rest are counted. */
const NAMED = 10

/**
 * Beside Save: how many rows are wrong and which, each a button that puts the focus in its row
 * (a long table's wrong row may be far off screen).
 */
export function RowsToFix<Row extends RowWithId>({
  rows,
  errors,
}: {
  rows: Row[]
  /** What is wrong, by row number (1-based; 0 is about no row and is said elsewhere). */
  errors: Record<number, string>
}) {
  const numbers = Object.keys(errors)
    .map(Number)
    .filter((number) => number >= 1 && number <= rows.length)
    .sort((a, b) => a - b)
  if (numbers.length === 0) return null
  const named = numbers.slice(0, NAMED)
  return (
    <p className="text-sm text-red-700">
      {numbers.length === 1 ? '1 row needs fixing:' : `${numbers.length} rows need fixing:`}{' '}
      {named.map((number, index) => (
        <Fragment key={number}>
          {index > 0 ? ', ' : ''}
          <button
            type="button"
            onClick={() => {
              const row = rows[number - 1]
              if (row) focusRow(row.id)
            }}
            className="underline hover:text-red-900"
          >
            row {number}
          </button>
        </Fragment>
      ))}
      {numbers.length > named.length ? ` and ${numbers.length - named.length} more` : ''}
    </p>
  )
}
