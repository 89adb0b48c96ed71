import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { LocationsPage } from '../../app/pages/locations-page'
import { layersAsked, optionalText } from '../../app/search-params'
import { rulesQueries } from '../../features/rules/api/rules-api'

// A project's locations: /projects/<projectId>/locations, a lazy chunk. The address may name the
// job the person came from, and layers it proposed as rooms (rows to start with).
export const Route = createFileRoute('/_app/projects/$projectId/locations')({
  // The loader is split off with the page: the rules API loads only here, not with every screen.
  codeSplitGroupings: [['loader', 'component']],
  validateSearch: v.object({ job: optionalText, layers: layersAsked }),
  // A failure shows on the page, which asks again.
  loader: ({ context, params }) =>
    context.queryClient.prefetchQuery(rulesQueries.document(params.projectId, 'locations')),
  component: Page,
})

function Page() {
  return <LocationsPage projectId={Route.useParams().projectId} search={Route.useSearch()} />
}
