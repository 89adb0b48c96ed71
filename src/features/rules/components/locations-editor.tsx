import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { errorText, httpStatus } from '../../../lib/http-errors'
import { type LocationsDocument, rulesQueries } from '../api/rules-api'
import {
  fromLocation,
  type LocationEditorRow,
  locationError,
  newLocationRow,
  toLocation,
} from '../utils/location-rows'
import { tableHeaders } from '../utils/table-columns'
import { rowErrors } from '../utils/table-rows'
import { EditorTable } from './editor-table'
import { LabelSources, LocationCells } from './location-row'
import { LocationsPreview } from './locations-preview'
import { type PreviewJob, PreviewJobSelect } from './rules-preview'
import { SavedTableFrame } from './saved-table-frame'
import { useDebounced } from './use-debounced'
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
  const checks = useMemo(() => {
    const errors: Record<number, string> = {}
    state.rows.forEach((row, index) => {
      const error = locationError(row)
      if (error) errors[index + 1] = error
    })
    return errors
  }, [state.rows])
  const valid = Object.keys(checks).length === 0
  const [jobId, setJobId] = useState(
    () => jobs.find((job) => job.id === initialJobId)?.id ?? jobs[0]?.id ?? '',
  )
  const rows = useMemo(
    () => (valid && state.rows.length > 0 ? state.rows.map(toLocation) : null),
    [state.rows, valid],
  )
  const settled = useDebounced(rows, LOCATIONS_PREVIEW_DEBOUNCE_MS)
  const preview = useQuery({
    ...rulesQueries.locationsPreview(jobId, settled ?? []),
    enabled: jobId !== '' && settled !== null,
    placeholderData: keepPreviousData,
  })
  // The server's refusal of the previewed rows names them, as a save's would.
  const previewErrors =
    preview.isError && httpStatus(preview.error) === 400 && settled === rows
      ? rowErrors(errorText(preview.error))
      : {}
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
      <section aria-label="Preview" className="flex flex-col gap-2 border-t border-slate-200 pt-3">
        <h2 className="font-semibold text-slate-800">Preview</h2>
        <PreviewJobSelect jobs={jobs} jobId={jobId} onJob={setJobId} />
        {!valid ? (
          <p className="text-sm text-slate-600">
            The preview waits for the rows marked to be fixed.
          </p>
        ) : state.rows.length === 0 ? (
          <p className="text-sm text-slate-600">Add a row to see the zones it finds.</p>
        ) : preview.isError ? (
          // Refused (400: its rows are marked too), gone or unreadable: said, not waited on.
          <p className="text-sm whitespace-pre-line text-red-700">
            {httpStatus(preview.error) === 400 ? 'Not previewed: ' : 'The preview failed: '}
            {errorText(preview.error)}
          </p>
        ) : preview.data ? (
          <LocationsPreview preview={preview.data} />
        ) : jobId ? (
          <p className="text-sm text-slate-500">Reading the drawing for its zones…</p>
        ) : null}
      </section>
    </div>
  )
}
