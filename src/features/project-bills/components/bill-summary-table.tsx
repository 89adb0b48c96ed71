import {
  type AssembledBill,
  itemsBySection,
  type ProjectItem,
  sectionHeading,
} from '#contract/project-bills.ts'
import { formatAmount, formatItemQuantity, formatRate } from '../../../lib/format-amount'
import { billedColumns } from '../utils/billed-columns'

/** The bill's items by section, a column per billed drawing, the sum, the rate, the amount. */
export function BillSummaryTable({ bill }: { bill: AssembledBill }) {
  const columns = billedColumns(bill)
  // Code, description and unit, a column per drawing, then quantity, rate and amount.
  const span = 6 + columns.length
  if (bill.priced.items.length === 0) {
    return (
      <p className="text-sm text-slate-600">
        {columns.length === 0
          ? 'No items yet: no drawing of this bill is billed.'
          : 'No priced items: the drawings’ measured lines are below (the warnings say why).'}
      </p>
    )
  }
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-sm" aria-label="Summary">
        <thead>
          <tr className="border-b border-slate-300 text-left">
            <th className="px-2 py-1">Code</th>
            <th className="px-2 py-1">Description</th>
            <th className="px-2 py-1">Unit</th>
            {columns.map((drawing) => (
              <th key={drawing.itemId} className="px-2 py-1 text-right">
                {drawing.fileName} v{drawing.versionNumber}
              </th>
            ))}
            <th className="px-2 py-1 text-right">Quantity</th>
            <th className="px-2 py-1 text-right">Rate</th>
            <th className="px-2 py-1 text-right">Amount</th>
          </tr>
        </thead>
        <tbody>
          {itemsBySection(bill.priced.items).map(([section, items]) => (
            <SectionRows
              key={section}
              heading={sectionHeading(bill.priced, section)}
              items={items}
              columns={columns}
              span={span}
            />
          ))}
        </tbody>
        <tfoot>
          <tr className="border-t border-slate-300 font-semibold">
            <td className="px-2 py-1" colSpan={span - 1}>
              Total
            </td>
            <td className="px-2 py-1 text-right">{formatAmount(bill.priced.total)}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  )
}

function SectionRows({
  heading,
  items,
  columns,
  span,
}: {
  heading: string
  items: ProjectItem[]
  columns: { itemId: string }[]
  span: number
}) {
  return (
    <>
      <tr className="bg-slate-50 font-semibold">
        <th scope="rowgroup" className="px-2 py-1 text-left" colSpan={span}>
          {heading}
        </th>
      </tr>
      {items.map((item) => (
        <tr
          key={`${item.code}\n${item.description}\n${item.unit}`}
          className="border-b border-slate-100"
        >
          <td className="px-2 py-1">{item.code}</td>
          <td className="px-2 py-1">{item.description}</td>
          <td className="px-2 py-1">{item.unit}</td>
          {columns.map((column) => {
            const share = item.byDrawing.find((one) => one.itemId === column.itemId)
            return (
              <td key={column.itemId} className="px-2 py-1 text-right">
                {share ? formatItemQuantity(share.quantity) : ''}
              </td>
            )
          })}
          <td className="px-2 py-1 text-right">{formatItemQuantity(item.quantity)}</td>
          <td className="px-2 py-1 text-right">
            {item.rate === null ? '' : formatRate(item.rate)}
          </td>
          <td className="px-2 py-1 text-right">
            {item.amount === null ? '' : formatAmount(item.amount)}
          </td>
        </tr>
      ))}
    </>
  )
}
