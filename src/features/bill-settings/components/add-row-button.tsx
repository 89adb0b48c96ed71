import { fieldId } from '../utils/settings-problems'
import { invalidProps } from './field-problem'

/**
 * A table's Add button (the table's field, so its problem points here): adds the row `make`
 * gives, at most `max` rows, and puts the focus on the new row's first field, what is typed next.
 */
export function AddRowButton<Row extends { id: number }>({
  field,
  problem,
  rows,
  max,
  make,
  firstField,
  onChange,
  children,
}: {
  field: string
  problem: string | undefined
  rows: Row[]
  max: number
  make(): Row
  /** The new row's field that takes the focus. */
  firstField(row: Row): string
  onChange(rows: Row[]): void
  children: string
}) {
  return (
    <p>
      <button
        id={fieldId(field)}
        type="button"
        disabled={rows.length >= max}
        onClick={() => {
          const row = make()
          onChange([...rows, row])
          requestAnimationFrame(() => document.getElementById(fieldId(firstField(row)))?.focus())
        }}
        className="rounded border border-slate-400 px-3 py-1 text-sm hover:bg-slate-100 disabled:opacity-50"
        {...invalidProps(field, problem)}
      >
        {children}
      </button>
    </p>
  )
}
