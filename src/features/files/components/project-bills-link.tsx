import { Link } from '@tanstack/react-router'

/**
 * The way from the tree to the selected node's project's bills; on a selected folder, to a new
 * bill over it.
 */
export function ProjectBillsLink({
  projectId,
  folder,
}: {
  projectId: string
  folder?: { id: string; name: string }
}) {
  return (
    <Link
      to="/projects/$projectId/bills"
      params={{ projectId }}
      search={folder ? { folder: folder.id, folderName: folder.name } : {}}
      className="mt-1 ml-3 inline-block text-sm text-sky-700 underline"
    >
      {folder ? 'New project bill…' : 'Project bills…'}
    </Link>
  )
}
