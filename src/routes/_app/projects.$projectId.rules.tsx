import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { RulesPage } from '../../app/pages/rules-page'
import { optionalText, rulesAsked } from '../../app/search-params'
import { rulesQueries } from '../../features/rules/api/rules-api'

// A project's takeoff rules: /projects/<projectId>/rules, a lazy chunk. The address may name the
// job to preview and rows to start with (from not-classified lines of a result): one row by its
// cells, or several as `rules`.
export const Route = createFileRoute('/_app/projects/$projectId/rules')({
  // The loader is split off with the page: the rules API loads only here, not with every screen.
  codeSplitGroupings: [['loader', 'component']],
  validateSearch: v.object({
    job: optionalText,
    match: optionalText,
    block: optionalText,
    layer: optionalText,
    kind: optionalText,
    description: optionalText,
    rules: rulesAsked,
  }),
  // A failure shows on the page, which asks again.
  loader: ({ context, params }) =>
    context.queryClient.prefetchQuery(rulesQueries.document(params.projectId, 'rules')),
  component: Page,
})

function Page() {
  return <RulesPage projectId={Route.useParams().projectId} search={Route.useSearch()} />
}
