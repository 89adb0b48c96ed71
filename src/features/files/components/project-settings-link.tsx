import { Link } from '@tanstack/react-router'

/** The way from the tree to the selected node's project's bill settings. */
export function ProjectSettingsLink({ projectId }: { projectId: string }) {
  return (
    <Link
      to="/projects/$projectId/bill-settings"
      params={{ projectId }}
      className="mt-1 ml-3 inline-block text-sm text-sky-700 underline"
    >
      Bill settings…
    </Link>
  )
}
