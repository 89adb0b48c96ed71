import { Fragment, type ReactNode, useEffect, useId, useMemo, useRef } from 'react'
import { type Grouped, groupDescription, withGroups } from '#contract/bill-groups.ts'
import type { BillBreakdownRow, BillGroup, BillLine } from '#contract/boq.ts'
import { type LongTable, useLongTable } from '../../../components/long-table/use-long-table'
import { formatCount, formatQuantity } from '../../../lib/format-quantity'
import { BILL_COLUMNS } from '../utils/result-tables'
import type { Selection } from '../utils/selection'
import type { Sort } from '../utils/sort-rows'
import { LongTableFrame } from './long-table-frame'

type Props = {
  lines: readonly BillLine[]
  /** Lines shown as one (pasted blocks): under one line that opens onto them. */
  groups: readonly BillGroup[]
  sort: Sort | null
  onSort(column: string): void
  expanded: ReadonlySet<string>
  onToggle(ref: string): void
  selection: Selection | null
  onSelect(selection: Selection): void
  /** The line to scroll into view; a new object scrolls again. */
  reveal: { ref: string; count: number } | null
}

/** The key a group of lines is opened by, beside the lines' refs. */
export const groupKey = (group: BillGroup) => `group:${group.name}`

/**
 * The bill: one row per line (item, description, quantity, unit), each opening onto the rows of
 * its breakdown; the lines of a group (pasted blocks) under one line that opens onto them. A
 * line's or a row's description selects it (a pressed toggle button). Each line and its
 * breakdown (or a group and its lines) is a row group of its own, so that a long bill draws and
 * measures it as one.
 */
export function BillTable({
  lines,
  groups,
  sort,
  onSort,
  expanded,
  onToggle,
  selection,
  onSelect,
  reveal,
}: Props) {
  const entries = useMemo(() => withGroups(lines, groups, (line) => line.ref), [lines, groups])
  const table = useLongTable(entries.length, (index) => entryKey(entries[index], index))
  useReveal(reveal, entries, table)
  const rowsOf = (line: BillLine) => (
    <LineRows
      key={line.ref}
      line={line}
      open={expanded.has(line.ref)}
      onToggle={onToggle}
      selection={selection?.ref === line.ref ? selection : null}
      onSelect={onSelect}
    />
  )
  return (
    <LongTableFrame table={table} caption="Bill" columns={BILL_COLUMNS} sort={sort} onSort={onSort}>
      {table.drawn.map((index) => {
        const entry = entries[index] as Grouped<BillLine>
        return (
          <tbody key={entryKey(entry, index)} data-index={index} ref={table.measure}>
            {'row' in entry ? (
              rowsOf(entry.row)
            ) : (
              <GroupRows
                group={entry.group}
                lines={entry.rows}
                open={expanded.has(groupKey(entry.group))}
                onToggle={onToggle}
              >
                {entry.rows.map(rowsOf)}
              </GroupRows>
            )}
          </tbody>
        )
      })}
    </LongTableFrame>
  )
}

function entryKey(entry: Grouped<BillLine> | undefined, index: number): string {
  if (!entry) return String(index)
  return 'row' in entry ? entry.row.ref : groupKey(entry.group)
}

/**
 * A group's line (`Pasted blocks (27 kinds, 29 placed)`, of the lines shown: a filter may show
 * fewer), opening onto its lines. It has no quantity of its own: its lines have theirs.
 */
function GroupRows({
  group,
  lines,
  open,
  onToggle,
  children,
}: {
  group: BillGroup
  lines: readonly BillLine[]
  open: boolean
  onToggle(key: string): void
  children: ReactNode
}) {
  const kinds = new Set(lines.map((line) => line.block)).size
  const placed = lines.reduce((sum, line) => sum + line.quantity, 0)
  const description = groupDescription(group.name, kinds, placed)
  return (
    <Fragment>
      <tr className="border-b border-slate-100 bg-slate-50">
        <td className="whitespace-nowrap py-1 pr-2 text-slate-600">
          <button
            type="button"
            aria-label={`${group.name}: ${lines.length} lines`}
            aria-expanded={open}
            onClick={() => onToggle(groupKey(group))}
            className="inline-flex items-center gap-1 hover:text-sky-700"
          >
            <span aria-hidden="true" className="w-3 text-xs">
              {open ? '▾' : '▸'}
            </span>
            {lines[0]?.ref}…
          </button>
        </td>
        <th scope="row" className="py-1 pr-2 text-left font-medium">
          {description}
        </th>
        <td className="py-1 pr-2" />
        <td className="py-1 pr-2" />
      </tr>
      {open ? children : null}
    </Fragment>
  )
}

/**
 * Scrolls the line asked for into view: a long table first scrolls near it so that it is drawn,
 * then the drawn row is brought fully into view.
 */
function useReveal(
  reveal: Props['reveal'],
  entries: readonly Grouped<BillLine>[],
  table: LongTable,
) {
  const latest = useRef({ entries, table })
  latest.current = { entries, table }
  const pending = useRef<string | null>(null)
  useEffect(() => {
    if (!reveal) return
    pending.current = reveal.ref
    const { entries, table } = latest.current
    // A line under a group is in its group's row group.
    const index = entries.findIndex((entry) =>
      'row' in entry
        ? entry.row.ref === reveal.ref
        : entry.rows.some((line) => line.ref === reveal.ref),
    )
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
