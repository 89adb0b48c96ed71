import { type RulesDocument, rulesQueries } from '../api/rules-api'
import { clientError, type EditorRow, fromRule, newRow, toRule } from '../utils/rule-rows'
import { tableHeaders } from '../utils/table-columns'
import { EditorTable } from './editor-table'
import { RuleCells } from './rule-row'
import { type PreviewJob, RulesPreview } from './rules-preview'
import { SavedTableFrame } from './saved-table-frame'
import { TablePreviewSection, useTablePreview } from './table-preview'
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
  const table = useTablePreview({
    rows: state.rows,
    rowError: clientError,
    toWire: toRule,
    previewEmpty: true,
    debounceMs: PREVIEW_DEBOUNCE_MS,
    query: rulesQueries.preview,
    jobs,
    initialJobId,
  })
  const { checks, wire: rules, previewErrors } = table
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
      <TablePreviewSection jobs={jobs} table={table} refused="Not priced: " waiting="Pricing…">
        {(preview) => <RulesPreview priced={preview.priced} />}
      </TablePreviewSection>
    </div>
  )
}
