import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { ProjectBillsPage } from '../../app/pages/project-bills-page'
import { optionalText } from '../../app/search-params'

// A project's bills: /projects/<projectId>/bills, a lazy chunk. The address may name the folder
// the tree chose for a new bill.
export const Route = createFileRoute('/_app/projects/$projectId/bills/')({
  validateSearch: v.object({ folder: optionalText, folderName: optionalText }),
  component: Page,
})

function Page() {
  const { folder, folderName } = Route.useSearch()
  return (
    <ProjectBillsPage
      projectId={Route.useParams().projectId}
      folder={folder ? { id: folder, name: folderName ?? 'Folder' } : undefined}
    />
  )
}
