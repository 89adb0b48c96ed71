import { createFileRoute } from '@tanstack/react-router'
import { loadResultPage, ResultPage } from '../../app/pages/result-page'

// One job's result: /jobs/<jobId>, a lazy chunk (the bill's schema and tables load only here). A
// link to it starts the job and its bill on hover.
export const Route = createFileRoute('/_app/jobs/$jobId')({
  // The loader is split off with the page: the results API loads only here, not with every screen.
  codeSplitGroupings: [['loader', 'component']],
  loader: ({ context, params, preload }) =>
    loadResultPage(context.queryClient, params.jobId, { opening: !preload }),
  component: Page,
})

function Page() {
  return <ResultPage jobId={Route.useParams().jobId} />
}
