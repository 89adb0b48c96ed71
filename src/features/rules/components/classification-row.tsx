import { type ClassificationRow, ENTRY_COLUMNS } from '../utils/classification-rows'
import { COLUMN_LABELS } from '../utils/table-columns'
import { CELL_CLASS, type CellsProps } from './editor-table'

/** One code's editable cells: the code, its title, the code it sits under (empty: the top). */
export function EntryCells({ row, number, onEdit, invalid }: CellsProps<ClassificationRow>) {
  return (
    <>
      {ENTRY_COLUMNS.map((column) => (
        <td key={column} className="px-1 py-1">
          <input
            type="text"
            aria-label={`${COLUMN_LABELS[column]}, row ${number}`}
            value={row[column]}
            onChange={(event) => onEdit({ [column]: event.target.value })}
            className={`${CELL_CLASS} ${column === 'title' ? 'w-72' : 'w-28'}`}
            {...(column === 'code' ? invalid : {})}
          />
        </td>
      ))}
    </>
  )
}
