import { RULE_MATCHES } from '../../../../contract/takeoff-rules'
import { type EditorRow, TEXT_COLUMNS, type TextColumn } from '../utils/rule-rows'

const LABELS: Record<TextColumn, string> = {
  block: 'Block',
  layer: 'Layer',
  kind: 'Kind',
  attribute: 'Attribute',
  visibility: 'Visibility',
  code: 'Code',
  description: 'Description',
  unit: 'Unit',
  quantity: 'Quantity',
}

export const HEADERS = ['Match', ...TEXT_COLUMNS.map((c) => LABELS[c]), 'Rate', 'Ignore']

const cell = 'rounded border border-slate-300 px-1.5 py-1 text-sm'

/** One editable rule: its cells, its buttons, and what is wrong with it. */
export function RuleRow({
  row,
  number,
  last,
  error,
  onEdit,
  onMove,
  onRemove,
}: {
  row: EditorRow
  /** 1-based, as the server names rows. */
  number: number
  last: boolean
  error: string | undefined
  onEdit(cells: Partial<Omit<EditorRow, 'id'>>): void
  onMove(by: -1 | 1): void
  onRemove(): void
}) {
  const errorId = `rule-${row.id}-error`
  const invalid = error ? { 'aria-invalid': true, 'aria-describedby': errorId } : {}
  return (
    <tr aria-label={`Rule ${number}`} data-row-id={row.id} className="align-top">
      <th scope="row" className="px-1 py-1 text-right text-sm font-normal text-slate-500">
        {number}
      </th>
      <td className="px-1 py-1">
        <select
          aria-label={`Match, row ${number}`}
          value={row.match}
          onChange={(event) => onEdit({ match: event.target.value as EditorRow['match'] })}
          className={cell}
          {...invalid}
        >
          <option value="">—</option>
          {RULE_MATCHES.map((match) => (
            <option key={match} value={match}>
              {match}
            </option>
          ))}
        </select>
      </td>
      {TEXT_COLUMNS.map((column) => (
        <td key={column} className="px-1 py-1">
          <input
            type="text"
            aria-label={`${LABELS[column]}, row ${number}`}
            value={row[column]}
            onChange={(event) => onEdit({ [column]: event.target.value })}
            className={`${cell} ${column === 'description' ? 'w-48' : 'w-24'}`}
          />
        </td>
      ))}
      <td className="px-1 py-1">
        <input
          type="number"
          step="any"
          aria-label={`Rate, row ${number}`}
          value={row.rate}
          onChange={(event) => onEdit({ rate: event.target.value })}
          className={`${cell} w-24 text-right`}
        />
      </td>
      <td className="px-1 py-1 text-center">
        <input
          type="checkbox"
          aria-label={`Ignore, row ${number}`}
          checked={row.ignore}
          onChange={(event) => onEdit({ ignore: event.target.checked })}
        />
      </td>
      <td className="px-1 py-1 whitespace-nowrap">
        <RowButton
          label={`Move row ${number} up`}
          disabled={number === 1}
          onClick={() => onMove(-1)}
        >
          ↑
        </RowButton>
        <RowButton label={`Move row ${number} down`} disabled={last} onClick={() => onMove(1)}>
          ↓
        </RowButton>
        <RowButton label={`Remove row ${number}`} onClick={onRemove}>
          ✕
        </RowButton>
      </td>
      <td className="min-w-48 px-1 py-1 text-sm text-red-700">
        {error ? <span id={errorId}>{error}</span> : null}
      </td>
    </tr>
  )
}

function RowButton({
  label,
  disabled,
  onClick,
  children,
}: {
  label: string
  disabled?: boolean
  onClick(): void
  children: string
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onClick}
      className="mx-0.5 rounded border border-slate-300 px-1.5 py-0.5 text-sm hover:bg-slate-100 disabled:opacity-40"
    >
      {children}
    </button>
  )
}
