import { createFileRoute } from '@tanstack/react-router'
import { FileSelectionPage } from '../../app/pages/file-selection-page'
import { loadHubs } from '../../features/files/api/tree-queries'

export const Route = createFileRoute('/_app/')({
  // Loader and screen share one lazy chunk, loaded only behind the guard.
  codeSplitGroupings: [['loader', 'component']],
  loader: ({ context }) => loadHubs(context.queryClient),
  component: Page,
})

function Page() {
  return <FileSelectionPage hubs={Route.useLoaderData()} />
}
