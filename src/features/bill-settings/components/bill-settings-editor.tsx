import { useMemo, useState } from 'react'
import { SavedHistory } from '../../../components/saved-document/saved-history'
import { formatDateTime } from '../../../lib/format-date'
import type { BillSettingsDocument } from '../api/bill-settings-api'
import { billSettingsQueries } from '../api/bill-settings-api'
import { checkForm, type SettingsForm } from '../utils/settings-form'
import {
  fieldId,
  mergeProblems,
  NO_PROBLEMS,
  placeProblems,
  problemOf,
} from '../utils/settings-problems'
import { AdjustmentsTable } from './adjustments-table'
import { CurrencyField } from './currency-field'
import { DecimalsTable } from './decimals-table'
import { ProblemsToFix } from './problems-to-fix'
import { SettingsConflict } from './settings-conflict'
import { SettingsVersion } from './settings-version'
import { TextField } from './text-field'
import { useSavedSettings } from './use-saved-settings'

/**
 * A project's bill settings, edited: the currency and the bill's header, the decimals per unit,
 * the adjustments in order; Save with If-Match (a colleague's save in between shown, then theirs
 * or mine), History (a version opened read-only, to restore). What is wrong shows beside its
 * field and is summed up beside Save: the page's own check (the contract's schema) before
 * sending, the server's 400 lines after.
 */
export function BillSettingsEditor({
  projectId,
  document,
  onSaved,
}: {
  projectId: string
  document: BillSettingsDocument
  onSaved(): void
}) {
  const editor = useSavedSettings({ projectId, document, onSaved })
  const { state, dispatch, busy, failure } = editor
  const [opened, setOpened] = useState<number | null>(null)
  const { form } = state
  const checked = useMemo(() => checkForm(form), [form])
  const problems = mergeProblems(
    'problems' in checked ? placeProblems(checked.problems, form) : NO_PROBLEMS,
    placeProblems(state.refused, form),
  )
  const edit = <K extends keyof SettingsForm>(key: K, value: SettingsForm[K]) =>
    dispatch({ type: 'edit', change: (current) => ({ ...current, [key]: value }) })
  const header = (key: 'title' | 'client' | 'reference', label: string, hint: string) => (
    <TextField
      field={key}
      label={label}
      hint={hint}
      value={form[key]}
      problem={problemOf(problems, key)}
      onChange={(value) => edit(key, value)}
    />
  )
  return (
    <>
      <div className="flex flex-wrap items-center gap-3">
        <p className="text-sm text-slate-600">
          {state.version === 0
            ? 'Never saved: bills are priced without a currency or adjustments.'
            : `Version ${state.version}, saved by ${state.savedBy ?? 'someone'}${
                state.savedAt ? ` on ${formatDateTime(state.savedAt)}` : ''
              }.`}
          {state.dirty ? ' Unsaved changes.' : ''}
        </p>
        <SavedHistory
          query={billSettingsQueries.history(projectId)}
          version={state.version}
          here="on the page"
          onOpen={setOpened}
        />
      </div>
      {opened === null ? null : (
        <SettingsVersion
          projectId={projectId}
          version={opened}
          current={state.version}
          dirty={state.dirty}
          busy={busy}
          onRestore={(settings) => {
            setOpened(null)
            editor.restore(opened, settings)
          }}
          onClose={() => setOpened(null)}
        />
      )}
      {state.conflict ? (
        <SettingsConflict
          conflict={state.conflict}
          base={state.base}
          busy={busy}
          onReload={editor.reloadTheirs}
          onKeep={editor.keepMine}
        />
      ) : null}
      <section aria-labelledby="bill-settings-header-heading" className="flex flex-col gap-3">
        <h2 id="bill-settings-header-heading" className="font-semibold text-slate-800">
          The bill’s header
        </h2>
        <CurrencyField
          value={form.currency}
          problem={problemOf(problems, 'currency')}
          onChange={(code) => edit('currency', code)}
        />
        {header('title', 'Title', 'Priced bill of quantities')}
        {header('client', 'Client', 'None')}
        {header('reference', 'Reference', 'None')}
      </section>
      <DecimalsTable
        rows={form.decimals}
        problems={problems}
        onChange={(rows) => edit('decimals', rows)}
      />
      <AdjustmentsTable
        rows={form.adjustments}
        problems={problems}
        onChange={(rows) => edit('adjustments', rows)}
      />
      {problems.general.map((problem) => (
        <p key={problem} role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      ))}
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          disabled={busy}
          onClick={() => {
            if ('settings' in checked) editor.save(checked.settings)
            else {
              // Nothing is sent: the first field to fix takes the focus.
              const first = problems.placed[0]
              if (first) globalThis.document.getElementById(fieldId(first.key))?.focus()
            }
          }}
          className="rounded bg-sky-700 px-4 py-1 text-sm text-white disabled:opacity-50"
        >
          Save
        </button>
        <ProblemsToFix placed={problems.placed} />
        <p role="status" className="text-sm text-slate-700">
          {state.note}
        </p>
      </div>
      {failure ? (
        <p role="alert" className="text-sm text-red-700">
          {failure}
        </p>
      ) : null}
    </>
  )
}
