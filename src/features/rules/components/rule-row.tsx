import { RULE_MATCHES } from '../../../../contract/takeoff-rules'
import { type EditorRow, TEXT_COLUMNS, type TextColumn } from '../utils/rule-rows'
import { CELL_CLASS, type CellsProps } from './editor-table'

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

/** One rule's editable cells: its match, its text cells, its rate, whether it leaves out. */
export function RuleCells({ row, number, onEdit, invalid }: CellsProps<EditorRow>) {
  return (
    <>
      <td className="px-1 py-1">
        <select
          aria-label={`Match, row ${number}`}
          value={row.match}
          onChange={(event) => onEdit({ match: event.target.value as EditorRow['match'] })}
          className={CELL_CLASS}
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
            className={`${CELL_CLASS} ${column === 'description' ? 'w-48' : 'w-24'}`}
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
          className={`${CELL_CLASS} w-24 text-right`}
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
    </>
  )
}
