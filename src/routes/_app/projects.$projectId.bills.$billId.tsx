import { createFileRoute } from '@tanstack/react-router'
import { ProjectBillPage } from '../../app/pages/project-bill-page'

// A project bill: /projects/<projectId>/bills/<billId>, a lazy chunk.
export const Route = createFileRoute('/_app/projects/$projectId/bills/$billId')({
  component: Page,
})

function Page() {
  const { projectId, billId } = Route.useParams()
  return <ProjectBillPage projectId={projectId} billId={billId} />
}
