import { type LocationsDocument, rulesQueries } from '../api/rules-api'
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
import { LocationsPreview } from './locations-preview'
import type { PreviewJob } from './rules-preview'
import { SavedTableFrame } from './saved-table-frame'
import { TablePreviewSection, useTablePreview } from './table-preview'
import { useSavedTable } from './use-saved-table'

/**
 * How long the table stays unchanged before the preview asks: each preview reads a drawing, so
 * it waits for a pause in the typing longer than the rules' pricing does.
 */
export const LOCATIONS_PREVIEW_DEBOUNCE_MS = 600

/**
 * A project's locations: which closed outlines of its drawings are rooms or zones (their layers)
 * and where each one's name comes from, to edit, save (a colleague's save in between is caught),
 * import and export, with its saved versions. Every extraction of the project from then on
 * measures its bill by zone.
 */
export function LocationsEditor({
  projectId,
  document,
  jobs,
  initialJobId,
  prefills,
  onSaved,
}: {
  projectId: string
  document: LocationsDocument
  /** The project's finished jobs, newest first: the preview reads one's drawing again. */
  jobs: PreviewJob[]
  initialJobId?: string
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
  const table = useTablePreview({
    rows: state.rows,
    rowError: locationError,
    toWire: toLocation,
    previewEmpty: false,
    debounceMs: LOCATIONS_PREVIEW_DEBOUNCE_MS,
    query: rulesQueries.locationsPreview,
    jobs,
    initialJobId,
  })
  const { checks, valid, previewErrors } = table
  const errors = { ...previewErrors, ...state.saveErrors, ...checks }

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
      <TablePreviewSection
        jobs={jobs}
        table={table}
        noRows="Add a row to see the zones it finds."
        refused="Not previewed: "
        waiting="Reading the drawing for its zones…"
      >
        {(preview) => <LocationsPreview preview={preview} />}
      </TablePreviewSection>
    </div>
  )
}
