import { createFileRoute } from '@tanstack/react-router'
import { FileSelectionPage } from '../../app/pages/file-selection-page'
import { loadHubs } from '../../features/files/api/tree-queries'

// The file-selection screen again, at the address the header's Home button shows: the same
// screen as at '/', with the same loader and the same tree (its memory is the app's, not the
// route's).
export const Route = createFileRoute('/_app/home')({
  codeSplitGroupings: [['loader', 'component']],
  loader: ({ context }) => loadHubs(context.queryClient),
  component: Page,
})

function Page() {
  return <FileSelectionPage hubs={Route.useLoaderData()} />
}
