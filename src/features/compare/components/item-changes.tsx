import { formatAmount, formatItemQuantity } from '../../../lib/format-amount'
import type { ChangeItem, TotalChange } from '../api/compare-api'
import { formatAmountChange } from '../utils/format-change'
import { type ChangeColumn, ColumnHeads, StateCell, ZoneMoves } from './change-table-parts'

/** The table's columns. */
const COLUMNS: ChangeColumn[] = [
  { name: 'Item', numbers: false },
  { name: 'Code', numbers: false },
  { name: 'Description', numbers: false },
  { name: 'Unit', numbers: false },
  { name: 'Quantity before', numbers: true },
  { name: 'Quantity after', numbers: true },
  { name: 'Rate before', numbers: true },
  { name: 'Rate after', numbers: true },
  { name: 'Amount before', numbers: true },
  { name: 'Amount after', numbers: true },
  { name: 'Change', numbers: true },
  { name: 'State', numbers: false },
]

/** The columns left of the totals' amounts, which the total's label spans. */
const BEFORE_AMOUNTS = COLUMNS.findIndex(({ name }) => name === 'Amount before')

const numeric = 'py-1 pr-2 text-right tabular-nums'

/** A rate or amount the bill gives, or a dash for an item it has without a rate. */
const amount = (value: number | null) => (value === null ? '—' : formatAmount(value))

/**
 * The priced items of both bills: each item's quantity, rate and amount before and after, its
 * change of amount, largest first (the unchanged ones only when asked), and the totals.
 */
export function ItemChanges({
  items,
  total,
  showUnchanged,
}: {
  items: ChangeItem[]
  total: TotalChange
  showUnchanged: boolean
}) {
  const shown = showUnchanged ? items : items.filter((item) => item.state !== 'unchanged')
  return (
    <section className="flex flex-col gap-1">
      <h2 className="font-semibold text-slate-800">Items</h2>
      {items.length === 0 ? (
        <p className="text-sm text-slate-500">Neither priced bill has an item.</p>
      ) : (
        <div className="overflow-x-auto">
          <table aria-label="Items" className="w-full border-collapse text-sm">
            <ColumnHeads columns={COLUMNS} />
            <tbody>
              {shown.map((item) => (
                <Row key={item.ref} item={item} />
              ))}
            </tbody>
            <tfoot>
              <tr className="border-t-2 border-slate-400 font-semibold">
                <th colSpan={BEFORE_AMOUNTS} scope="row" className="py-1 pr-2 text-right">
                  Total
                </th>
                <td className={numeric}>{formatAmount(total.before)}</td>
                <td className={numeric}>{formatAmount(total.after)}</td>
                <td className={numeric}>{formatAmountChange(total.change)}</td>
                <td />
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </section>
  )
}

function Row({ item }: { item: ChangeItem }) {
  return (
    <tr className="border-b border-slate-100">
      <td className="py-1 pr-2 text-slate-500">{item.ref}</td>
      <td className="py-1 pr-2">{item.code}</td>
      <th scope="row" className="py-1 pr-2 text-left font-normal">
        {item.description}
        <ZoneMoves changes={item.byZone} />
      </th>
      <td className="py-1 pr-2">{item.unit}</td>
      <td className={numeric}>{formatItemQuantity(item.before.quantity)}</td>
      <td className={numeric}>{formatItemQuantity(item.after.quantity)}</td>
      <td className={numeric}>{amount(item.before.rate)}</td>
      <td className={numeric}>{amount(item.after.rate)}</td>
      <td className={numeric}>{amount(item.before.amount)}</td>
      <td className={numeric}>{amount(item.after.amount)}</td>
      <td className={numeric}>{formatAmountChange(item.amountChange)}</td>
      <StateCell state={item.state} />
    </tr>
  )
}
