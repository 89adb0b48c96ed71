import { createFileRoute } from '@tanstack/react-router'
import { ResultPage } from '../../app/pages/result-page'

// One job's result: /jobs/<jobId>, a lazy chunk (the bill's schema and tables load only here).
export const Route = createFileRoute('/_app/jobs/$jobId')({
  component: Page,
})

function Page() {
  return <ResultPage jobId={Route.useParams().jobId} />
}
