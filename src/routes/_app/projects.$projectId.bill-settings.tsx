import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { BillSettingsPage } from '../../app/pages/bill-settings-page'
import { optionalText } from '../../app/search-params'
import { billSettingsQueries } from '../../features/bill-settings/api/bill-settings-api'

// A project's bill settings: /projects/<projectId>/bill-settings, a lazy chunk. The address may
// name the job the person came from, for the way back.
export const Route = createFileRoute('/_app/projects/$projectId/bill-settings')({
  // The loader is split off with the page: the settings API loads only here, not with every screen.
  codeSplitGroupings: [['loader', 'component']],
  validateSearch: v.object({ job: optionalText }),
  // A failure shows on the page, which asks again.
  loader: ({ context, params }) =>
    context.queryClient.prefetchQuery(billSettingsQueries.document(params.projectId)),
  component: Page,
})

function Page() {
  return <BillSettingsPage projectId={Route.useParams().projectId} search={Route.useSearch()} />
}
