import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { RULE_MATCHES, type RuleMatch } from '#contract/takeoff-rules.ts'
import { jobsQueries } from '../../features/jobs/api/jobs-api'
import { resultQueries } from '../../features/results/api/results-api'
import { rulesQueries } from '../../features/rules/api/rules-api'
import { RulesEditor } from '../../features/rules/components/rules-editor'
import type { PreviewJob } from '../../features/rules/components/rules-preview'
import { formatDateTime } from '../../lib/format-date'
import { errorText } from '../../lib/http-errors'
import type { RuleAsked } from '../search-params'

/** What the rules page's address may carry: the job to preview, and rows to start with. */
export type RulesSearch = {
  job?: string
  match?: string
  block?: string
  layer?: string
  kind?: string
  description?: string
  /** Several rows at once (from a selection of lines); after the one row, when both are asked. */
  rules?: RuleAsked[]
}

const cellsOf = (row: Omit<RuleAsked, 'match'> & { match: RuleMatch }) => ({
  match: row.match,
  block: row.block ?? '',
  layer: row.layer ?? '',
  kind: row.kind ?? '',
  description: row.description ?? '',
})

/** The cells of the rows the address asks for, when it asks for any. */
function prefillsOf(search: RulesSearch) {
  const one =
    search.match && RULE_MATCHES.includes(search.match as RuleMatch)
      ? [cellsOf({ ...search, match: search.match as RuleMatch })]
      : []
  const rows = [...one, ...(search.rules ?? []).map(cellsOf)]
  return rows.length > 0 ? rows : undefined
}

/** A project's takeoff rules, previewed against its finished extractions. */
export function RulesPage({ projectId, search }: { projectId: string; search: RulesSearch }) {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const document = useQuery(rulesQueries.document(projectId, 'rules'))
  const jobs = useQuery(jobsQueries.list())
  const finished: PreviewJob[] = (jobs.data ?? [])
    .filter((job) => job.projectId === projectId && job.status === 'succeeded')
    .map((job) => ({
      id: job.id,
      label: `${job.fileName}${job.fileVersionNumber === null ? '' : `, version ${job.fileVersionNumber}`} (${formatDateTime(job.createdAt)})`,
    }))
  return (
    <div className="flex flex-col gap-4 p-4">
      <nav className="flex gap-4 text-sm">
        <Link to="/" className="text-sky-700 underline">
          Back to the drawings
        </Link>
        {search.job ? (
          <Link to="/jobs/$jobId" params={{ jobId: search.job }} className="text-sky-700 underline">
            Back to the result
          </Link>
        ) : null}
        <Link
          to="/projects/$projectId/classification"
          params={{ projectId }}
          search={{ job: search.job }}
          className="text-sky-700 underline"
        >
          Classification
        </Link>
        <Link
          to="/projects/$projectId/bill-settings"
          params={{ projectId }}
          search={{ job: search.job }}
          className="text-sky-700 underline"
        >
          Bill settings
        </Link>
      </nav>
      <h1 className="text-lg font-semibold text-slate-800">Takeoff rules</h1>
      {/* Once loaded, the editor stays: a later failed refetch must not take unsaved rows away. */}
      {document.isPending || jobs.isPending ? (
        <p className="text-sm text-slate-500">Loading the rules…</p>
      ) : !document.data ? (
        <p role="alert" className="text-sm text-red-700">
          {errorText(document.error)}
        </p>
      ) : (
        <RulesEditor
          key={projectId}
          projectId={projectId}
          document={document.data}
          jobs={finished}
          initialJobId={search.job}
          prefills={prefillsOf(search)}
          onSaved={() => {
            // Every priced bill of the project is priced again when next shown.
            queryClient.invalidateQueries({ queryKey: resultQueries.pricedAll() }).catch(() => {})
            // The rows asked for are saved: the address no longer asks for them (a reload adds none).
            if (search.match || search.rules) {
              navigate({
                to: '/projects/$projectId/rules',
                params: { projectId },
                search: { job: search.job },
                replace: true,
              }).catch(() => {})
            }
          }}
        />
      )}
    </div>
  )
}
