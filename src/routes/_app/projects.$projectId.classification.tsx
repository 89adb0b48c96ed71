import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { ClassificationPage } from '../../app/pages/classification-page'
import { optionalText } from '../../app/search-params'
import { rulesQueries } from '../../features/rules/api/rules-api'

// A project's classification system: /projects/<projectId>/classification, a lazy chunk. The
// address may name the job the person came from, for the way back.
export const Route = createFileRoute('/_app/projects/$projectId/classification')({
  // The loader is split off with the page: the rules API loads only here, not with every screen.
  codeSplitGroupings: [['loader', 'component']],
  validateSearch: v.object({ job: optionalText }),
  // A failure shows on the page, which asks again.
  loader: ({ context, params }) =>
    context.queryClient.prefetchQuery(rulesQueries.document(params.projectId, 'classification')),
  component: Page,
})

function Page() {
  return <ClassificationPage projectId={Route.useParams().projectId} search={Route.useSearch()} />
}
