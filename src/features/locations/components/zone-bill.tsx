import { formatCount, formatMeasure } from '../../../lib/format-quantity'
import type { InZone } from '../utils/zone-figures'

/** Each line's (or item's) quantity in one zone, beside the whole it is a part of. */
export function ZoneBill({ caption, rows }: { caption: string; rows: readonly InZone[] }) {
  if (rows.length === 0) return <p className="text-sm text-slate-600">{caption}: nothing.</p>
  const figure = (row: InZone, value: number) =>
    row.kind === 'count' || row.unit === 'nr' ? formatCount(value) : formatMeasure(value)
  return (
    <table className="w-full text-sm">
      <caption className="py-1 text-left font-semibold text-slate-800">{caption}</caption>
      <thead>
        <tr className="border-b border-slate-300 text-left">
          <th scope="col" className="py-1 pr-2">
            Item
          </th>
          <th scope="col" className="py-1 pr-2">
            Description
          </th>
          <th scope="col" className="py-1 pr-2 text-right">
            Quantity here
          </th>
          <th scope="col" className="py-1 pr-2">
            Unit
          </th>
          <th scope="col" className="py-1 pr-2 text-right">
            Of the whole
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.ref} className="border-b border-slate-100">
            <td className="py-1 pr-2">{row.ref}</td>
            <td className="py-1 pr-2">{row.description}</td>
            <td className="py-1 pr-2 text-right tabular-nums">{figure(row, row.quantity)}</td>
            <td className="py-1 pr-2">{row.unit}</td>
            <td className="py-1 pr-2 text-right tabular-nums">{figure(row, row.whole)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
