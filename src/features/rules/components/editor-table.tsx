import { type ComponentType, Fragment, useLayoutEffect, useRef } from 'react'
import type { RowAction } from '../utils/rules-editor-state'
import type { RowWithId } from '../utils/table-rows'

/** Where the focus goes once rows have moved or gone (keyboard users stay in the table). */
type Refocus = { kind: 'moved'; id: number; by: -1 | 1 } | { kind: 'removed'; index: number }

/** What a table's own cells get: the row, its number, how to change it, its error's marks. */
export type CellsProps<Row extends RowWithId> = {
  row: Row
  /** 1-based, as the server names rows. */
  number: number
  onEdit(cells: Partial<Omit<Row, 'id'>>): void
  /** aria-invalid and aria-describedby for the cell that stands for the row, when it is wrong. */
  invalid: { 'aria-invalid'?: true; 'aria-describedby'?: string }
}

/**
 * An editable table of one of the project's tables, in order: each row's number, its own cells,
 * buttons to move it up or down and to remove it, and, on a line of its own under the row, what is
 * wrong with it (the cell that stands for the row is described by it). A moved row keeps
 * the focus on the button that moved it, so the keyboard can move it again; a removed row's
 * place keeps it too.
 */
export function EditorTable<Row extends RowWithId>({
  label,
  rowName,
  headers,
  empty,
  rows,
  errors,
  dispatch,
  Cells,
}: {
  /** The table's accessible name. */
  label: string
  /** Each row is named `${rowName} ${number}`. */
  rowName: string
  /** The headers of the row's own cells. */
  headers: readonly string[]
  /** What shows instead of an empty table. */
  empty: string
  rows: Row[]
  /** What is wrong, by row number (1-based). */
  errors: Record<number, string>
  dispatch(action: RowAction<Row>): void
  /** The row's own cells (`<td>`s). */
  Cells: ComponentType<CellsProps<Row>>
}) {
  const table = useRef<HTMLTableElement>(null)
  const refocus = useRef<Refocus | null>(null)
  useLayoutEffect(() => {
    const after = refocus.current
    if (!after) return
    refocus.current = null
    const button = (name: string) =>
      table.current?.querySelector<HTMLButtonElement>(`button[aria-label="${name}"]:not(:disabled)`)
    if (after.kind === 'removed') {
      // The row that took the removed one's place, else the one above it.
      const at = Math.min(after.index, rows.length - 1)
      button(`Remove row ${at + 1}`)?.focus()
      return
    }
    const at = rows.findIndex((row) => row.id === after.id)
    const [same, other] = after.by < 0 ? ['up', 'down'] : ['down', 'up']
    // At the top or the bottom the button that moved it is disabled: the other one takes the focus.
    ;(button(`Move row ${at + 1} ${same}`) ?? button(`Move row ${at + 1} ${other}`))?.focus()
  })
  if (rows.length === 0) {
    return <p className="text-sm text-slate-600">{empty}</p>
  }
  return (
    <div className="overflow-x-auto">
      <table ref={table} aria-label={label} className="border-collapse text-left">
        <thead>
          <tr className="text-xs text-slate-500">
            <th scope="col" className="px-1">
              #
            </th>
            {headers.map((header) => (
              <th key={header} scope="col" className="px-1 font-medium">
                {header}
              </th>
            ))}
            <th scope="col" className="px-1 font-medium">
              <span className="sr-only">Order</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => {
            const number = index + 1
            const error = errors[number]
            const errorId = `row-${row.id}-error`
            return (
              <Fragment key={row.id}>
                <tr aria-label={`${rowName} ${number}`} data-row-id={row.id} className="align-top">
                  <th
                    scope="row"
                    className="px-1 py-1 text-right text-sm font-normal text-slate-500"
                  >
                    {number}
                  </th>
                  <Cells
                    row={row}
                    number={number}
                    onEdit={(changed) => dispatch({ type: 'edit', id: row.id, cells: changed })}
                    invalid={error ? { 'aria-invalid': true, 'aria-describedby': errorId } : {}}
                  />
                  <td className="px-1 py-1 whitespace-nowrap">
                    <RowButton
                      label={`Move row ${number} up`}
                      disabled={number === 1}
                      onClick={() => {
                        refocus.current = { kind: 'moved', id: row.id, by: -1 }
                        dispatch({ type: 'move', id: row.id, by: -1 })
                      }}
                    >
                      ↑
                    </RowButton>
                    <RowButton
                      label={`Move row ${number} down`}
                      disabled={number === rows.length}
                      onClick={() => {
                        refocus.current = { kind: 'moved', id: row.id, by: 1 }
                        dispatch({ type: 'move', id: row.id, by: 1 })
                      }}
                    >
                      ↓
                    </RowButton>
                    <RowButton
                      label={`Remove row ${number}`}
                      onClick={() => {
                        refocus.current = { kind: 'removed', index }
                        dispatch({ type: 'remove', id: row.id })
                      }}
                    >
                      ✕
                    </RowButton>
                  </td>
                </tr>
                {error ? (
                  // Under the row it is about, across the row's cells: on screen wherever the row is.
                  <tr className="align-top">
                    <td />
                    <td colSpan={headers.length + 1} className="px-1 pb-2 text-sm text-red-700">
                      <span aria-hidden="true">↳ </span>
                      <span id={errorId}>{error}</span>
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}

function RowButton({
  label,
  disabled,
  onClick,
  children,
}: {
  label: string
  disabled?: boolean
  onClick(): void
  children: string
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onClick}
      className="mx-0.5 rounded border border-slate-300 px-1.5 py-0.5 text-sm hover:bg-slate-100 disabled:opacity-40"
    >
      {children}
    </button>
  )
}

/** The look of every cell's input; the cell standing for a wrong row is outlined in red. */
export const CELL_CLASS =
  'rounded border border-slate-300 px-1.5 py-1 text-sm aria-invalid:border-red-600'

/** Puts the focus in a row of the table (on its marked cell when it is wrong), by the row's id. */
export function focusRow(rowId: number): void {
  const row = document.querySelector(`tr[data-row-id="${rowId}"]`)
  const cell =
    row?.querySelector<HTMLElement>('[aria-invalid="true"]') ??
    row?.querySelector<HTMLElement>('input, select')
  cell?.focus()
}
