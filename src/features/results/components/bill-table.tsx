import { Fragment, useEffect, useId, useRef } from 'react'
import type { BillBreakdownRow, BillLine } from '../../../../contract/boq'
import { formatCount, formatQuantity } from '../utils/format-quantity'
import { BILL_COLUMNS } from '../utils/result-tables'
import type { Selection } from '../utils/selection'
import type { Sort } from '../utils/sort-rows'
import { SortHeader } from './sort-header'

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
 * its breakdown. A line's or a row's description selects it (a pressed toggle button).
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
  const body = useRef<HTMLTableSectionElement>(null)
  useEffect(() => {
    if (!reveal) return
    const row = Array.from(body.current?.rows ?? []).find((tr) => tr.dataset.ref === reveal.ref)
    // jsdom has no scrollIntoView; browsers do.
    row?.scrollIntoView?.({ block: 'nearest' })
  }, [reveal])
  return (
    <table className="w-full border-collapse text-sm">
      <caption className="sr-only">Bill</caption>
      <thead>
        <tr className="border-b border-slate-300">
          {BILL_COLUMNS.map((column) => (
            <SortHeader key={column.id} column={column} sort={sort} onSort={onSort} />
          ))}
        </tr>
      </thead>
      <tbody ref={body}>
        {lines.map((line) => (
          <LineRows
            key={line.ref}
            line={line}
            open={expanded.has(line.ref)}
            onToggle={onToggle}
            selection={selection?.ref === line.ref ? selection : null}
            onSelect={onSelect}
          />
        ))}
      </tbody>
    </table>
  )
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
