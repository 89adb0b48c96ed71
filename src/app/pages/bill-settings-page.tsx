import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { billSettingsQueries } from '../../features/bill-settings/api/bill-settings-api'
import { BillSettingsEditor } from '../../features/bill-settings/components/bill-settings-editor'
import { resultQueries } from '../../features/results/api/results-api'
import { rulesQueries } from '../../features/rules/api/rules-api'
import { errorText } from '../../lib/http-errors'

/** What the bill settings page's address may carry: the job the person came from. */
export type BillSettingsSearch = { job?: string }

/** A project's bill settings, beside its takeoff rules and classification. */
export function BillSettingsPage({
  projectId,
  search,
}: {
  projectId: string
  search: BillSettingsSearch
}) {
  const queryClient = useQueryClient()
  const document = useQuery(billSettingsQueries.document(projectId))
  return (
    <div className="flex flex-col gap-4 p-4">
      <nav className="flex gap-4 text-sm">
        <Link to="/" className="text-sky-700 underline">
          Back to the drawings
        </Link>
        <Link
          to="/projects/$projectId/rules"
          params={{ projectId }}
          search={{ job: search.job }}
          className="text-sky-700 underline"
        >
          Takeoff rules
        </Link>
        <Link
          to="/projects/$projectId/classification"
          params={{ projectId }}
          search={{ job: search.job }}
          className="text-sky-700 underline"
        >
          Classification
        </Link>
        {search.job ? (
          <Link to="/jobs/$jobId" params={{ jobId: search.job }} className="text-sky-700 underline">
            Back to the result
          </Link>
        ) : null}
      </nav>
      <h1 className="text-lg font-semibold text-slate-800">Bill settings</h1>
      <p className="max-w-prose text-sm text-slate-600">
        What the project’s priced bills carry besides their measured items: the currency, the
        header, the decimals each unit is billed to, and the adjustments below the items. A new
        extraction is priced with the settings saved; a finished job’s bill of record changes when
        it is re-priced.
      </p>
      {/* Once loaded, the editor stays: a later failed refetch must not take unsaved fields away. */}
      {document.isPending ? (
        <p className="text-sm text-slate-500">Loading the bill settings…</p>
      ) : !document.data ? (
        <p role="alert" className="text-sm text-red-700">
          {errorText(document.error)}
        </p>
      ) : (
        <BillSettingsEditor
          key={projectId}
          projectId={projectId}
          document={document.data}
          onSaved={() => {
            // Previews price with the settings saved: every priced bill and preview of the
            // project is priced again when next shown.
            queryClient.invalidateQueries({ queryKey: resultQueries.pricedAll() }).catch(() => {})
            queryClient.invalidateQueries({ queryKey: rulesQueries.previews() }).catch(() => {})
          }}
        />
      )}
    </div>
  )
}
