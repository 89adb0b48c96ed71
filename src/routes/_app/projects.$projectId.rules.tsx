import { createFileRoute } from '@tanstack/react-router'
import { RulesPage, type RulesSearch } from '../../app/pages/rules-page'
import { rulesQueries } from '../../features/rules/api/rules-api'

const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined)

// A project's takeoff rules: /projects/<projectId>/rules, a lazy chunk. The address may name the
// job to preview and a row to start with (from a not-classified line of a result).
export const Route = createFileRoute('/_app/projects/$projectId/rules')({
  // The loader is split off with the page: the rules API loads only here, not with every screen.
  codeSplitGroupings: [['loader', 'component']],
  validateSearch: (search: Record<string, unknown>): RulesSearch => ({
    job: text(search.job),
    match: text(search.match),
    block: text(search.block),
    layer: text(search.layer),
    kind: text(search.kind),
    description: text(search.description),
  }),
  // A failure shows on the page, which asks again.
  loader: ({ context, params }) =>
    context.queryClient.prefetchQuery(rulesQueries.document(params.projectId, 'rules')),
  component: Page,
})

function Page() {
  return <RulesPage projectId={Route.useParams().projectId} search={Route.useSearch()} />
}
