import { Link } from '@tanstack/react-router'

/** The way from the tree to the selected node's project's takeoff rules. */
export function ProjectRulesLink({ projectId }: { projectId: string }) {
  return (
    <Link
      to="/projects/$projectId/rules"
      params={{ projectId }}
      className="mt-1 inline-block text-sm text-sky-700 underline"
    >
      Rules…
    </Link>
  )
}
