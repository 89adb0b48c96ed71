import { type ZoneChange, zoneMoves } from '#contract/compare.ts'
import type { ChangeState } from '../api/compare-api'

/** A column of a change table; numbers line up on the right. */
export type ChangeColumn = { name: string; numbers: boolean }

/** The head row of a change table. */
export function ColumnHeads({ columns }: { columns: readonly ChangeColumn[] }) {
  return (
    <thead>
      <tr className="border-b border-slate-300 text-left">
        {columns.map(({ name, numbers }) => (
          <th key={name} scope="col" className={`py-1 pr-2 ${numbers ? 'text-right' : ''}`}>
            {name}
          </th>
        ))}
      </tr>
    </thead>
  )
}

/** Under a line's or an item's description: what changed zone by zone (when both have zones). */
export function ZoneMoves({ changes }: { changes: readonly ZoneChange[] | undefined }) {
  const moves = changes ? zoneMoves(changes) : ''
  return moves ? <span className="block text-xs text-slate-600">By zone: {moves}</span> : null
}

/** A line's or an item's state as a coloured tag, in the row's last cell. */
export function StateCell({ state }: { state: ChangeState }) {
  return (
    <td className="py-1">
      <span className={`rounded px-2 py-0.5 text-xs ${STATE_STYLE[state]}`}>{state}</span>
    </td>
  )
}

const STATE_STYLE: Record<ChangeState, string> = {
  added: 'bg-emerald-100 text-emerald-800',
  removed: 'bg-red-100 text-red-800',
  changed: 'bg-amber-100 text-amber-900',
  unchanged: 'bg-slate-100 text-slate-600',
}
