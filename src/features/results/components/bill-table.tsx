import { Fragment, useEffect, useId, useRef } from 'react'
import type { BillBreakdownRow, BillLine } from '../../../../contract/boq'
import { formatCount, formatQuantity } from '../../../lib/format-quantity'
import { BILL_COLUMNS } from '../utils/result-tables'
import type { Selection } from '../utils/selection'
import type { Sort } from '../utils/sort-rows'
import { LongTableFrame } from './long-table-frame'
import { type LongTable, useLongTable } from './use-long-table'

type Props = {
  lines: readonly BillLine[]
  sort: Sort | null
  onSort(column: string): void
  expanded: ReadonlySet<string>
  onToggle(ref: string): void
  selection: Selection | null
  onSelect(selection: Selection): void
  /** The line to scroll into view; a new object scrolls again. */
  reveal: { ref: string; count: number } | null
}

/**
 * The bill: one row per line (item, description, quantity, unit), each opening onto the rows of
 * its breakdown. A line's or a row's description selects it (a pressed toggle button). Each line
 * and its breakdown is a row group of its own, so that a long bill draws and measures it as one.
 */
export function BillTable({
  lines,
  sort,
  onSort,
  expanded,
  onToggle,
  selection,
  onSelect,
  reveal,
}: Props) {
  const table = useLongTable(lines.length, (index) => lines[index]?.ref ?? String(index))
  useReveal(reveal, lines, table)
  return (
    <LongTableFrame table={table} caption="Bill" columns={BILL_COLUMNS} sort={sort} onSort={onSort}>
      {table.drawn.map((index) => {
        const line = lines[index] as BillLine
        return (
          <tbody key={line.ref} data-index={index} ref={table.measure}>
            <LineRows
              line={line}
              open={expanded.has(line.ref)}
              onToggle={onToggle}
              selection={selection?.ref === line.ref ? selection : null}
              onSelect={onSelect}
            />
          </tbody>
        )
      })}
    </LongTableFrame>
  )
}

/**
 * Scrolls the line asked for into view: a long table first scrolls near it so that it is drawn,
 * then the drawn row is brought fully into view.
 */
function useReveal(reveal: Props['reveal'], lines: readonly BillLine[], table: LongTable) {
  const latest = useRef({ lines, table })
  latest.current = { lines, table }
  const pending = useRef<string | null>(null)
  useEffect(() => {
    if (!reveal) return
    pending.current = reveal.ref
    const { lines, table } = latest.current
    const index = lines.findIndex((line) => line.ref === reveal.ref)
    if (table.long && index >= 0) table.virtualizer.scrollToIndex(index, { align: 'center' })
  }, [reveal])
  // After every render: the row may have just been drawn.
  useEffect(() => {
    if (pending.current === null) return
    const rows = latest.current.table.scroller.current?.querySelectorAll('tr[data-ref]') ?? []
    const row = Array.from(rows).find((tr) => (tr as HTMLElement).dataset.ref === pending.current)
    if (!row) return
    pending.current = null
    // jsdom has no scrollIntoView; browsers do.
    row.scrollIntoView?.({ block: 'nearest' })
  })
}

function LineRows({
  line,
  open,
  onToggle,
  selection,
  onSelect,
}: {
  line: BillLine
  open: boolean
  onToggle(ref: string): void
  /** The selection when it is this line or one of its rows. */
  selection: Selection | null
  onSelect(selection: Selection): void
}) {
  const idPrefix = useId()
  const rowId = (index: number) => `${idPrefix}-${index}`
  const lineSelected = selection !== null && selection.row === null
  return (
    <Fragment>
      <tr
        data-ref={line.ref}
        className={`border-b border-slate-100 ${lineSelected ? 'bg-sky-100' : ''}`}
      >
        <td className="whitespace-nowrap py-1 pr-2 text-slate-600">
          {line.breakdown.length > 0 ? (
            <button
              type="button"
              // Its name starts with what it shows (the ref), then says what it opens.
              aria-label={`${line.ref} breakdown`}
              aria-expanded={open}
              aria-controls={open ? line.breakdown.map((_, i) => rowId(i)).join(' ') : undefined}
              onClick={() => onToggle(line.ref)}
              className="inline-flex items-center gap-1 hover:text-sky-700"
            >
              <span aria-hidden="true" className="w-3 text-xs">
                {open ? '▾' : '▸'}
              </span>
              {line.ref}
            </button>
          ) : (
            <span className="pl-4">{line.ref}</span>
          )}
        </td>
        <th scope="row" className="py-1 pr-2 text-left font-normal">
          <button
            type="button"
            aria-pressed={lineSelected}
            onClick={() => onSelect({ ref: line.ref, row: null })}
            className="text-left hover:text-sky-700"
          >
            {line.description}
          </button>
        </th>
        <td className="py-1 pr-2 text-right tabular-nums">
          {formatQuantity(line.kind, line.quantity)}
        </td>
        <td className="py-1 pr-2">{line.unit}</td>
      </tr>
      {open
        ? line.breakdown.map((row, index) => {
            const rowSelected = selection?.row === index
            return (
              <tr
                // biome-ignore lint/suspicious/noArrayIndexKey: a line's breakdown never reorders
                key={index}
                id={rowId(index)}
                className={`border-b border-slate-100 text-slate-700 ${rowSelected ? 'bg-sky-100' : 'bg-slate-50'}`}
              >
                <td className="py-1 pr-2" />
                <th scope="row" className="py-1 pr-2 pl-5 text-left font-normal">
                  <button
                    type="button"
                    aria-pressed={rowSelected}
                    onClick={() => onSelect({ ref: line.ref, row: index })}
                    className="text-left hover:text-sky-700"
                  >
                    {row.label}
                  </button>{' '}
                  <span className="ml-1 text-xs text-slate-500">{rowDetail(line, row)}</span>
                </th>
                <td className="py-1 pr-2 text-right tabular-nums">
                  {formatQuantity(line.kind, row.quantity)}
                </td>
                <td className="py-1 pr-2">{line.unit}</td>
              </tr>
            )
          })
        : null}
    </Fragment>
  )
}

/** What a breakdown row adds to its quantity: how many entities, or how many were nested. */
function rowDetail(line: BillLine, row: BillBreakdownRow): string {
  if (line.kind === 'count') return row.nested ? `of which ${formatCount(row.nested)} nested` : ''
  return `${formatCount(row.count)} ${row.count === 1 ? 'entity' : 'entities'}`
}
