import { createFileRoute } from '@tanstack/react-router'
import { ClassificationPage, type ClassificationSearch } from '../../app/pages/classification-page'
import { rulesQueries } from '../../features/rules/api/rules-api'

const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined)

// A project's classification system: /projects/<projectId>/classification, a lazy chunk. The
// address may name the job the person came from, for the way back.
export const Route = createFileRoute('/_app/projects/$projectId/classification')({
  // The loader is split off with the page: the rules API loads only here, not with every screen.
  codeSplitGroupings: [['loader', 'component']],
  validateSearch: (search: Record<string, unknown>): ClassificationSearch => ({
    job: text(search.job),
  }),
  // A failure shows on the page, which asks again.
  loader: ({ context, params }) =>
    context.queryClient.prefetchQuery(rulesQueries.document(params.projectId, 'classification')),
  component: Page,
})

function Page() {
  return <ClassificationPage projectId={Route.useParams().projectId} search={Route.useSearch()} />
}
