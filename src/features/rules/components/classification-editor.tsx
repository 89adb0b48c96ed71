import { useMemo } from 'react'
import type { ClassificationDocument } from '../api/rules-api'
import { entryError, fromEntry, newEntryRow, toEntry } from '../utils/classification-rows'
import { tableHeaders } from '../utils/table-columns'
import { EntryCells } from './classification-row'
import { EditorTable } from './editor-table'
import { SavedTableFrame } from './saved-table-frame'
import { useSavedTable } from './use-saved-table'

/**
 * A project's classification system: codes with their titles and the code each sits under, to
 * edit, save (a colleague's save in between is caught), import and export, with its saved
 * versions. Its titles name the items whose rule gives a code without a description, and its
 * order and top level make the priced bill's sections.
 */
export function ClassificationEditor({
  projectId,
  document,
  onSaved,
}: {
  projectId: string
  document: ClassificationDocument
  /** After each save, for what else shows the project's pricing. */
  onSaved(): void
}) {
  const editor = useSavedTable({
    projectId,
    table: 'classification',
    document,
    toRow: fromEntry,
    onSaved,
  })
  const { state, dispatch } = editor
  const checks = useMemo(() => {
    const errors: Record<number, string> = {}
    state.rows.forEach((row, index) => {
      const error = entryError(row)
      if (error) errors[index + 1] = error
    })
    return errors
  }, [state.rows])
  const valid = Object.keys(checks).length === 0
  const errors = { ...state.saveErrors, ...checks }

  return (
    <div className="flex flex-col gap-4">
      <SavedTableFrame
        projectId={projectId}
        table="classification"
        editor={editor}
        errors={errors}
        canSave={valid}
        onAdd={() => dispatch({ type: 'add', row: newEntryRow() })}
        onSave={() => editor.save(state.rows.map(toEntry))}
      >
        <EditorTable
          label="Classification"
          rowName="Entry"
          headers={tableHeaders('classification')}
          empty="No codes yet: add a row or import a file."
          rows={state.rows}
          errors={errors}
          dispatch={dispatch}
          Cells={EntryCells}
        />
      </SavedTableFrame>
    </div>
  )
}
