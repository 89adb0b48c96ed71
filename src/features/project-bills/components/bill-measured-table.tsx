import { useState } from 'react'
import type { AssembledBill, ProjectMeasuredLine } from '#contract/project-bills.ts'
import { formatItemQuantity } from '../../../lib/format-amount'
import { billedColumns } from '../utils/billed-columns'

/** Lines shown at first, and added by each "Show more": a drawing may have thousands. */
const PAGE = 100

const KIND_TITLES = { count: 'Counts', length: 'Linework', area: 'Areas' } as const

/**
 * The drawings' measured lines summed, counts then linework then areas, a column per billed
 * drawing and the sum: what the items were priced from, and what a bill stays when it is not.
 */
export function BillMeasuredTable({ bill }: { bill: AssembledBill }) {
  const [shown, setShown] = useState(PAGE)
  const columns = billedColumns(bill)
  const lines = bill.measured.slice(0, shown)
  if (bill.measured.length === 0) {
    return <p className="text-sm text-slate-600">No measured lines: no drawing is billed yet.</p>
  }
  const span = 3 + columns.length
  return (
    <div className="flex flex-col gap-2">
      <div className="overflow-x-auto">
        <table className="min-w-full text-sm" aria-label="Measured lines">
          <thead>
            <tr className="border-b border-slate-300 text-left">
              <th className="px-2 py-1">Description</th>
              <th className="px-2 py-1">Unit</th>
              {columns.map((drawing) => (
                <th key={drawing.itemId} className="px-2 py-1 text-right">
                  {drawing.fileName} v{drawing.versionNumber}
                </th>
              ))}
              <th className="px-2 py-1 text-right">Quantity</th>
            </tr>
          </thead>
          <tbody>
            {(['count', 'length', 'area'] as const).map((kind) => (
              <KindRows
                key={kind}
                title={KIND_TITLES[kind]}
                lines={lines.filter((line) => line.kind === kind)}
                columns={columns}
                span={span}
              />
            ))}
          </tbody>
        </table>
      </div>
      {shown < bill.measured.length ? (
        <button
          type="button"
          className="self-start text-sm text-sky-700 underline"
          onClick={() => setShown((count) => count + PAGE)}
        >
          Show more ({shown} of {bill.measured.length} lines shown)
        </button>
      ) : null}
    </div>
  )
}

function KindRows({
  title,
  lines,
  columns,
  span,
}: {
  title: string
  lines: ProjectMeasuredLine[]
  columns: { itemId: string }[]
  span: number
}) {
  if (lines.length === 0) return null
  return (
    <>
      <tr className="bg-slate-50 font-semibold">
        <th scope="rowgroup" className="px-2 py-1 text-left" colSpan={span}>
          {title}
        </th>
      </tr>
      {lines.map((line) => {
        const shares = new Map(line.byDrawing.map((share) => [share.itemId, share.quantity]))
        return (
          <tr
            key={`${line.kind}\n${line.description}\n${line.unit}`}
            className="border-b border-slate-100"
          >
            <td className="px-2 py-1">{line.description}</td>
            <td className="px-2 py-1">{line.unit}</td>
            {columns.map((column) => {
              const quantity = shares.get(column.itemId)
              return (
                <td key={column.itemId} className="px-2 py-1 text-right">
                  {quantity === undefined ? '' : formatItemQuantity(quantity)}
                </td>
              )
            })}
            <td className="px-2 py-1 text-right">{formatItemQuantity(line.quantity)}</td>
          </tr>
        )
      })}
    </>
  )
}
