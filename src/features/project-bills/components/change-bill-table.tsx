import type { ProjectChangeBill } from '#contract/project-bills.ts'
import { formatAmount, formatItemQuantity } from '../../../lib/format-amount'
import { signed } from '../utils/bill-words'

const sideName = (side: ProjectChangeBill['from']) =>
  side.number === null ? 'now' : `issue ${side.number} (${side.name})`

const amountText = (value: number | null) => (value === null ? '' : formatAmount(value))

/** A project change bill: each item that moved, before and after, and which drawings moved it. */
export function ChangeBillTable({ changes }: { changes: ProjectChangeBill }) {
  const moved = changes.items.filter(
    (item) => item.change.quantity !== 0 || (item.change.amount ?? 0) !== 0,
  )
  const title = `Changes from ${sideName(changes.from)} to ${sideName(changes.to)}`
  return (
    <div className="overflow-x-auto">
      {moved.length === 0 ? (
        <p className="text-sm text-slate-600">Nothing changed from {sideName(changes.from)}.</p>
      ) : (
        <table className="min-w-full text-sm" aria-label={title}>
          <thead>
            <tr className="border-b border-slate-300 text-left">
              <th className="px-2 py-1">Item</th>
              <th className="px-2 py-1 text-right">Before</th>
              <th className="px-2 py-1 text-right">After</th>
              <th className="px-2 py-1 text-right">Change</th>
              <th className="px-2 py-1 text-right">Amount change</th>
              <th className="px-2 py-1">Moved by</th>
            </tr>
          </thead>
          <tbody>
            {moved.map((item) => (
              <tr
                key={`${item.code}\n${item.description}\n${item.unit}`}
                className="border-b border-slate-100 align-top"
              >
                <td className="px-2 py-1">
                  {item.code} {item.description}
                </td>
                <td className="px-2 py-1 text-right">
                  {formatItemQuantity(item.before.quantity)} {item.unit}
                </td>
                <td className="px-2 py-1 text-right">
                  {formatItemQuantity(item.after.quantity)} {item.unit}
                </td>
                <td className="px-2 py-1 text-right">
                  {signed(item.change.quantity, formatItemQuantity)} {item.unit}
                </td>
                <td className="px-2 py-1 text-right">
                  {item.change.amount === null ? '' : signed(item.change.amount)}
                </td>
                <td className="px-2 py-1">
                  {item.drivenBy.map((driver) => (
                    <span key={driver.itemId} className="block">
                      {driver.fileName} v{driver.fromVersion ?? '—'} → v{driver.toVersion ?? '—'}
                      {driver.amount === null ? '' : `: ${signed(driver.amount)}`}
                    </span>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="mt-2 text-sm font-semibold">
        Total {amountText(changes.total.before)} → {amountText(changes.total.after)} (
        {signed(changes.total.change)})
      </p>
    </div>
  )
}
