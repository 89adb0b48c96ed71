import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query'
import { useMemo, useReducer, useState } from 'react'
import { formatDateTime } from '../../../lib/format-date'
import { errorText, httpStatus } from '../../../lib/http-errors'
import { type RulesBody, type RulesDocument, rulesQueries, saveRules } from '../api/rules-api'
import { clientError, type EditorRow, newRow, rowErrors, toRule } from '../utils/rule-rows'
import { editorReducer, initialEditor } from '../utils/rules-editor-state'
import { RulesFiles } from './rules-files'
import { type PreviewJob, PreviewJobSelect, RulesPreview } from './rules-preview'
import { RulesTable } from './rules-table'
import { SaveConflict } from './save-conflict'
import { useDebounced } from './use-debounced'

/** How long the table stays unchanged before the preview asks the server. */
export const PREVIEW_DEBOUNCE_MS = 300

/**
 * A project's takeoff rules: the table to edit, save (a colleague's save in between is caught),
 * import and export, and a preview of what the unsaved table makes of a finished job.
 */
export function RulesEditor({
  projectId,
  document,
  jobs,
  initialJobId,
  prefill,
  onSaved,
}: {
  projectId: string
  document: RulesDocument
  /** The project's finished jobs, newest first. */
  jobs: PreviewJob[]
  initialJobId?: string
  /** Cells of a new row to start with (a rule made from a not-classified line). */
  prefill?: Partial<Omit<EditorRow, 'id'>>
  /** After each save, for what else shows the project's pricing. */
  onSaved(): void
}) {
  const queryClient = useQueryClient()
  const [state, dispatch] = useReducer(editorReducer, undefined, () =>
    initialEditor(document, prefill ? newRow(prefill) : undefined),
  )
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState('')
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

  const save = async (body: RulesBody, version: number) => {
    setBusy(true)
    setFailure('')
    try {
      const saved = await saveRules(projectId, version, body)
      queryClient.setQueryData(rulesQueries.document(projectId).queryKey, saved)
      const note = `Saved as version ${saved.version}.`
      dispatch(
        body.kind === 'file'
          ? { type: 'loaded', document: saved, note: `Imported ${body.file.name}. ${note}` }
          : { type: 'saved', document: saved, note },
      )
      onSaved()
    } catch (error) {
      const status = httpStatus(error)
      const reason = errorText(error)
      if (status === 412 || status === 409) {
        dispatch({ type: 'conflict', conflict: { reason, pending: body } })
      } else if (status === 400 && body.kind === 'rules') {
        dispatch({ type: 'refused', errors: rowErrors(reason) })
      } else {
        setFailure(body.kind === 'file' ? `${body.file.name} was not imported: ${reason}` : reason)
      }
    } finally {
      setBusy(false)
    }
  }

  /** The newest saved version, asked again (not from the cache). */
  const latest = async () => {
    await queryClient.invalidateQueries({ queryKey: rulesQueries.document(projectId).queryKey })
    return queryClient.fetchQuery(rulesQueries.document(projectId))
  }

  const reloadTheirs = async () => {
    setBusy(true)
    try {
      const theirs = await latest()
      dispatch({ type: 'loaded', document: theirs, note: `Version ${theirs.version} loaded.` })
    } catch (error) {
      setFailure(errorText(error))
    } finally {
      setBusy(false)
    }
  }

  const keepMine = async () => {
    const pending = state.conflict?.pending
    if (!pending) return
    setBusy(true)
    try {
      const theirs = await latest()
      await save(pending, theirs.version)
    } catch (error) {
      setFailure(errorText(error))
      setBusy(false)
    }
  }

  const general = errors[0]
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-slate-600">
        {state.version === 0
          ? 'Never saved.'
          : `Version ${state.version}, saved by ${state.savedBy ?? 'someone'}${
              state.savedAt ? ` on ${formatDateTime(state.savedAt)}` : ''
            }.`}
        {state.dirty ? ' Unsaved changes.' : ''}
      </p>
      <RulesFiles
        projectId={projectId}
        busy={busy}
        onImport={(file) => save({ kind: 'file', file }, state.version)}
      />
      {state.conflict ? (
        <SaveConflict
          reason={state.conflict.reason}
          busy={busy}
          onReload={reloadTheirs}
          onKeep={keepMine}
        />
      ) : null}
      <RulesTable rows={state.rows} errors={errors} dispatch={dispatch} />
      {general ? (
        <p role="alert" className="text-sm text-red-700">
          {general}
        </p>
      ) : null}
      <div className="flex items-center gap-3">
        <button
          type="button"
          onClick={() => dispatch({ type: 'add' })}
          className="rounded border border-slate-400 px-3 py-1 text-sm hover:bg-slate-100"
        >
          Add a row
        </button>
        <button
          type="button"
          disabled={busy || !valid || !rules}
          onClick={() => rules && save({ kind: 'rules', rules }, state.version)}
          className="rounded bg-sky-700 px-4 py-1 text-sm text-white disabled:opacity-50"
        >
          Save
        </button>
        <p role="status" className="text-sm text-slate-700">
          {state.note}
        </p>
      </div>
      {failure ? (
        <p role="alert" className="text-sm text-red-700">
          {failure}
        </p>
      ) : null}
      <section aria-label="Preview" className="flex flex-col gap-2 border-t border-slate-200 pt-3">
        <h2 className="font-semibold text-slate-800">Preview</h2>
        <PreviewJobSelect jobs={jobs} jobId={jobId} onJob={setJobId} />
        {!valid ? (
          <p className="text-sm text-slate-600">
            The preview waits for the rows marked to be fixed.
          </p>
        ) : preview.isError && httpStatus(preview.error) !== 400 ? (
          <p className="text-sm text-red-700">{errorText(preview.error)}</p>
        ) : preview.data ? (
          <RulesPreview priced={preview.data.priced} />
        ) : jobId ? (
          <p className="text-sm text-slate-500">Pricing…</p>
        ) : null}
      </section>
    </div>
  )
}
