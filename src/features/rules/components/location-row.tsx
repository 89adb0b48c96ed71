import { LABEL_SOURCES, type LocationEditorRow } from '../utils/location-rows'
import { COLUMN_LABELS } from '../utils/table-columns'
import { CELL_CLASS, type CellsProps } from './editor-table'

/** The label sources offered as the label cell is typed (attribute: takes a tag after it). */
export const LABEL_LIST_ID = 'location-label-sources'

/** The label cell's offers, once per page. */
export function LabelSources() {
  return (
    <datalist id={LABEL_LIST_ID}>
      {LABEL_SOURCES.map((source) => (
        <option key={source} value={source} />
      ))}
    </datalist>
  )
}

/** One row's editable cells: the zones' layers, where their names come from, the label's layers. */
export function LocationCells({ row, number, onEdit, invalid }: CellsProps<LocationEditorRow>) {
  return (
    <>
      <td className="px-1 py-1">
        <input
          type="text"
          aria-label={`${COLUMN_LABELS.layer}, row ${number}`}
          value={row.layer}
          onChange={(event) => onEdit({ layer: event.target.value })}
          className={`${CELL_CLASS} w-40`}
          {...invalid}
        />
      </td>
      <td className="px-1 py-1">
        <input
          type="text"
          list={LABEL_LIST_ID}
          aria-label={`${COLUMN_LABELS.label}, row ${number}`}
          value={row.label}
          onChange={(event) => onEdit({ label: event.target.value })}
          className={`${CELL_CLASS} w-40`}
        />
      </td>
      <td className="px-1 py-1">
        <input
          type="text"
          aria-label={`${COLUMN_LABELS.labelLayer}, row ${number}`}
          value={row.labelLayer}
          placeholder="any"
          onChange={(event) => onEdit({ labelLayer: event.target.value })}
          className={`${CELL_CLASS} w-40`}
        />
      </td>
    </>
  )
}
