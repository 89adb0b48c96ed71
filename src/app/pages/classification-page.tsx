import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { resultQueries } from '../../features/results/api/results-api'
import { rulesQueries } from '../../features/rules/api/rules-api'
import { ClassificationEditor } from '../../features/rules/components/classification-editor'
import { errorText } from '../../lib/http-errors'

/** What the classification page's address may carry: the job the person came from. */
export type ClassificationSearch = { job?: string }

/** A project's classification system, beside its takeoff rules. */
export function ClassificationPage({
  projectId,
  search,
}: {
  projectId: string
  search: ClassificationSearch
}) {
  const queryClient = useQueryClient()
  const document = useQuery(rulesQueries.document(projectId, 'classification'))
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
          to="/projects/$projectId/bill-settings"
          params={{ projectId }}
          search={{ job: search.job }}
          className="text-sky-700 underline"
        >
          Bill settings
        </Link>
        {search.job ? (
          <Link to="/jobs/$jobId" params={{ jobId: search.job }} className="text-sky-700 underline">
            Back to the result
          </Link>
        ) : null}
      </nav>
      <h1 className="text-lg font-semibold text-slate-800">Classification</h1>
      <p className="max-w-prose text-sm text-slate-600">
        The codes of the project’s bills: a rule with a code and no description takes the code’s
        title, and the top-level codes, in this order, are the priced bill’s sections.
      </p>
      {/* Once loaded, the editor stays: a later failed refetch must not take unsaved rows away. */}
      {document.isPending ? (
        <p className="text-sm text-slate-500">Loading the classification…</p>
      ) : !document.data ? (
        <p role="alert" className="text-sm text-red-700">
          {errorText(document.error)}
        </p>
      ) : (
        <ClassificationEditor
          key={projectId}
          projectId={projectId}
          document={document.data}
          onSaved={() => {
            // Titles and sections come from the classification: every priced bill of the
            // project, and every preview of its rules, is priced again when next shown.
            queryClient.invalidateQueries({ queryKey: resultQueries.pricedAll() }).catch(() => {})
            queryClient.invalidateQueries({ queryKey: rulesQueries.previews() }).catch(() => {})
          }}
        />
      )}
    </div>
  )
}
