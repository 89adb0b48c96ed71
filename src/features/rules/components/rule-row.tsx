import { RULE_MATCHES } from '#contract/takeoff-rules.ts'
import { type EditorRow, TEXT_COLUMNS, type TextColumn } from '../utils/rule-rows'
import { COLUMN_LABELS } from '../utils/table-columns'
import { CELL_CLASS, type CellsProps } from './editor-table'

/**
 * Each text cell's width: the whole row fits a 1440 px screen beside its buttons, with room for
 * the longer cells (block names, descriptions, formulas).
 */
const WIDTHS: Record<TextColumn, string> = {
  block: 'w-28',
  layer: 'w-24',
  kind: 'w-20',
  attribute: 'w-24',
  visibility: 'w-20',
  zone: 'w-20',
  code: 'w-20',
  description: 'w-48',
  unit: 'w-14',
  quantity: 'w-28',
}

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
            aria-label={`${COLUMN_LABELS[column]}, row ${number}`}
            value={row[column]}
            onChange={(event) => onEdit({ [column]: event.target.value })}
            className={`${CELL_CLASS} ${WIDTHS[column]}`}
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
          className={`${CELL_CLASS} w-20 text-right`}
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
