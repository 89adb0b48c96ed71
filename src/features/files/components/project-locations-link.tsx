import { Link } from '@tanstack/react-router'

/** The way from the tree to the selected node's project's locations (its rooms and zones). */
export function ProjectLocationsLink({ projectId }: { projectId: string }) {
  return (
    <Link
      to="/projects/$projectId/locations"
      params={{ projectId }}
      className="mt-1 ml-3 inline-block text-sm text-sky-700 underline"
    >
      Locations…
    </Link>
  )
}
