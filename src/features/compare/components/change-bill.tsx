import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { errorText } from '../../../lib/http-errors'
import {
  type ChangeLine,
  type ChangeBill as Changes,
  type ComparedJobs,
  changeBillDownload,
  compareQueries,
} from '../api/compare-api'
import { formatChange, formatPercent, formatQuantity } from '../utils/format-change'
import { type ChangeColumn, ColumnHeads, StateCell, ZoneMoves } from './change-table-parts'
import { DrawingChanges } from './drawing-changes'
import type { ChangeDrawingSlot } from './drawing-slot'
import { ItemChanges } from './item-changes'

/** The table's columns. */
const COLUMNS: ChangeColumn[] = [
  { name: 'Item', numbers: false },
  { name: 'Description', numbers: false },
  { name: 'Before', numbers: true },
  { name: 'After', numbers: true },
  { name: 'Change', numbers: true },
  { name: '%', numbers: true },
  { name: 'Unit', numbers: false },
  { name: 'State', numbers: false },
]

/**
 * The change bill of two jobs: what changed, item by item (each line numbered as the server
 * numbered it, its own number), largest change first, after the priced items and their totals
 * when both bills are priced; above it, that the drawings are two different ones when they are;
 * beside it the drawings, with the entities added and removed coloured.
 */
export function ChangeBill({ jobs, Drawing }: { jobs: ComparedJobs; Drawing: ChangeDrawingSlot }) {
  const changes = useQuery(compareQueries.changes(jobs))
  if (changes.isPending) return <p className="text-sm text-slate-500">Comparing the bills…</p>
  if (changes.isError) {
    return (
      <p role="alert" className="text-sm text-red-700">
        {errorText(changes.error)}
      </p>
    )
  }
  return (
    <div className="flex flex-col gap-4 lg:flex-row lg:items-start">
      <div className="min-w-0 flex-1">
        <ChangeTable changes={changes.data} jobs={jobs} />
      </div>
      <DrawingChanges changes={changes.data} Drawing={Drawing} />
    </div>
  )
}

function ChangeTable({ changes, jobs }: { changes: Changes; jobs: ComparedJobs }) {
  const [showUnchanged, setShowUnchanged] = useState(false)
  const items = changes.items
  const unchanged = [...changes.lines, ...(items ?? [])].filter(
    (change) => change.state === 'unchanged',
  ).length
  const shown = showUnchanged
    ? changes.lines
    : changes.lines.filter((line) => line.state !== 'unchanged')
  const side = ({ fileName, versionNumber }: Changes['from']) =>
    versionNumber === null ? fileName : `${fileName}, version ${versionNumber}`
  return (
    <section aria-label="Change bill" className="flex flex-col gap-3">
      <h1 className="text-lg font-semibold">
        Changes from {side(changes.from)} to {side(changes.to)}
      </h1>
      {changes.differentDrawings === undefined ? null : (
        <p className="rounded border border-amber-300 bg-amber-50 px-2 py-1 text-sm font-medium text-amber-900">
          {changes.differentDrawings}
        </p>
      )}
      {changes.notes.map((note) => (
        <p key={note} className="rounded bg-sky-50 px-2 py-1 text-sm text-sky-900">
          {note}
        </p>
      ))}
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
        <label className="flex items-center gap-1">
          <input
            type="checkbox"
            checked={showUnchanged}
            onChange={(event) => setShowUnchanged(event.target.checked)}
          />
          Show unchanged ({unchanged})
        </label>
        <a className="text-sky-700 underline" href={changeBillDownload(jobs, 'xlsx')} download>
          Download XLSX
        </a>
        <a className="text-sky-700 underline" href={changeBillDownload(jobs, 'csv')} download>
          Download CSV
        </a>
      </div>
      {items === undefined || changes.total === undefined ? null : (
        <ItemChanges items={items} total={changes.total} showUnchanged={showUnchanged} />
      )}
      {items === undefined ? null : (
        <h2 className="font-semibold text-slate-800">Measured lines</h2>
      )}
      {shown.length === 0 ? (
        <p className="text-sm text-slate-500">
          {changes.lines.length === 0 ? 'Neither bill has an item.' : 'Nothing changed.'}
        </p>
      ) : (
        <table aria-label="Measured lines" className="w-full border-collapse text-sm">
          <ColumnHeads columns={COLUMNS} />
          <tbody>
            {shown.map((line) => (
              <Row key={line.ref} line={line} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

function Row({ line }: { line: ChangeLine }) {
  return (
    <tr className="border-b border-slate-100">
      <td className="py-1 pr-2 text-slate-500">{line.ref}</td>
      <th scope="row" className="py-1 pr-2 text-left font-normal">
        {line.description}
        <ZoneMoves changes={line.byZone} />
      </th>
      <td className="py-1 pr-2 text-right tabular-nums">{formatQuantity(line, line.before)}</td>
      <td className="py-1 pr-2 text-right tabular-nums">{formatQuantity(line, line.after)}</td>
      <td className="py-1 pr-2 text-right tabular-nums">{formatChange(line)}</td>
      <td className="py-1 pr-2 text-right tabular-nums">{formatPercent(line)}</td>
      <td className="py-1 pr-2">{line.unit}</td>
      <StateCell state={line.state} />
    </tr>
  )
}
