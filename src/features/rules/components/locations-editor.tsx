import { useMemo } from 'react'
import type { LocationsDocument } from '../api/rules-api'
import {
  fromLocation,
  type LocationEditorRow,
  locationError,
  newLocationRow,
  toLocation,
} from '../utils/location-rows'
import { tableHeaders } from '../utils/table-columns'
import { EditorTable } from './editor-table'
import { LabelSources, LocationCells } from './location-row'
import { SavedTableFrame } from './saved-table-frame'
import { useSavedTable } from './use-saved-table'

/**
 * A project's locations: which closed outlines of its drawings are rooms or zones (their layers)
 * and where each one's name comes from, to edit, save (a colleague's save in between is caught),
 * import and export, with its saved versions. Every extraction of the project from then on
 * measures its bill by zone.
 */
export function LocationsEditor({
  projectId,
  document,
  prefills,
  onSaved,
}: {
  projectId: string
  document: LocationsDocument
  /** Cells of new rows to start with (the layers a result proposed). */
  prefills?: Partial<Omit<LocationEditorRow, 'id'>>[]
  onSaved(): void
}) {
  const editor = useSavedTable({
    projectId,
    table: 'locations',
    document,
    toRow: fromLocation,
    extras: prefills?.map((cells) => newLocationRow(cells)),
    onSaved,
  })
  const { state, dispatch } = editor
  const checks = useMemo(() => {
    const errors: Record<number, string> = {}
    state.rows.forEach((row, index) => {
      const error = locationError(row)
      if (error) errors[index + 1] = error
    })
    return errors
  }, [state.rows])
  const valid = Object.keys(checks).length === 0
  const errors = { ...state.saveErrors, ...checks }

  return (
    <div className="flex flex-col gap-4">
      <LabelSources />
      <SavedTableFrame
        projectId={projectId}
        table="locations"
        editor={editor}
        errors={errors}
        canSave={valid}
        onAdd={() => dispatch({ type: 'add', row: newLocationRow() })}
        onSave={() => editor.save(state.rows.map(toLocation))}
      >
        <EditorTable
          label="Locations"
          rowName="Location"
          headers={tableHeaders('locations')}
          empty="No locations yet: add a row (A-AREA, names from the text inside) or import a file."
          rows={state.rows}
          errors={errors}
          dispatch={dispatch}
          Cells={LocationCells}
        />
      </SavedTableFrame>
    </div>
  )
}
