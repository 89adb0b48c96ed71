import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { errorText, httpStatus } from '../../../lib/http-errors'
import { type RulesDocument, rulesQueries } from '../api/rules-api'
import { clientError, type EditorRow, fromRule, newRow, toRule } from '../utils/rule-rows'
import { tableHeaders } from '../utils/table-columns'
import { rowErrors } from '../utils/table-rows'
import { EditorTable } from './editor-table'
import { RuleCells } from './rule-row'
import { type PreviewJob, PreviewJobSelect, RulesPreview } from './rules-preview'
import { SavedTableFrame } from './saved-table-frame'
import { useDebounced } from './use-debounced'
import { useSavedTable } from './use-saved-table'

/** How long the table stays unchanged before the preview asks the server. */
export const PREVIEW_DEBOUNCE_MS = 300

/**
 * A project's takeoff rules: the table to edit, save (a colleague's save in between is caught),
 * import and export, its saved versions, and a preview of what the unsaved table makes of a
 * finished job.
 */
export function RulesEditor({
  projectId,
  document,
  jobs,
  initialJobId,
  prefills,
  onSaved,
}: {
  projectId: string
  document: RulesDocument
  /** The project's finished jobs, newest first. */
  jobs: PreviewJob[]
  initialJobId?: string
  /** Cells of new rows to start with (rules made from not-classified lines). */
  prefills?: Partial<Omit<EditorRow, 'id'>>[]
  /** After each save, for what else shows the project's pricing. */
  onSaved(): void
}) {
  const editor = useSavedTable({
    projectId,
    table: 'rules',
    document,
    toRow: fromRule,
    extras: prefills?.map((cells) => newRow(cells)),
    onSaved,
  })
  const { state, dispatch } = editor
  const [jobId, setJobId] = useState(
    () => jobs.find((job) => job.id === initialJobId)?.id ?? jobs[0]?.id ?? '',
  )

  const checks = useMemo(() => {
    const errors: Record<number, string> = {}
    state.rows.forEach((row, index) => {
      const error = clientError(row)
      if (error) errors[index + 1] = error
    })
    return errors
  }, [state.rows])
  const valid = Object.keys(checks).length === 0
  const rules = useMemo(() => (valid ? state.rows.map(toRule) : null), [state.rows, valid])
  const settled = useDebounced(rules, PREVIEW_DEBOUNCE_MS)
  const preview = useQuery({
    ...rulesQueries.preview(jobId, settled ?? []),
    enabled: jobId !== '' && settled !== null,
    placeholderData: keepPreviousData,
  })
  // The server's refusal of the previewed table names its rows, as a save's would.
  const previewErrors =
    preview.isError && httpStatus(preview.error) === 400 && settled === rules
      ? rowErrors(errorText(preview.error))
      : {}
  const errors = { ...previewErrors, ...state.saveErrors, ...checks }

  return (
    <div className="flex flex-col gap-4">
      <SavedTableFrame
        projectId={projectId}
        table="rules"
        editor={editor}
        errors={errors}
        canSave={rules !== null}
        onAdd={() => dispatch({ type: 'add', row: newRow() })}
        onSave={() => rules && editor.save(rules)}
      >
        <EditorTable
          label="Takeoff rules"
          rowName="Rule"
          headers={tableHeaders('rules')}
          empty="No rules yet: add a row or import a file."
          rows={state.rows}
          errors={errors}
          dispatch={dispatch}
          Cells={RuleCells}
        />
      </SavedTableFrame>
      <section aria-label="Preview" className="flex flex-col gap-2 border-t border-slate-200 pt-3">
        <h2 className="font-semibold text-slate-800">Preview</h2>
        <PreviewJobSelect jobs={jobs} jobId={jobId} onJob={setJobId} />
        {!valid ? (
          <p className="text-sm text-slate-600">
            The preview waits for the rows marked to be fixed.
          </p>
        ) : preview.isError ? (
          // Refused (400: the rows it names are marked too) or not answered: said, not waited on.
          <p className="text-sm whitespace-pre-line text-red-700">
            {httpStatus(preview.error) === 400 ? 'Not priced: ' : 'The preview failed: '}
            {errorText(preview.error)}
          </p>
        ) : preview.data ? (
          <RulesPreview priced={preview.data.priced} />
        ) : jobId ? (
          <p className="text-sm text-slate-500">Pricing…</p>
        ) : null}
      </section>
    </div>
  )
}
