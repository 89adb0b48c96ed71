import { useQueries, useQueryClient } from '@tanstack/react-query'
import type { TreeNode } from '../../features/files/api/tree-nodes'
import { treeQueries } from '../../features/files/api/tree-queries'
import type { Job } from '../../features/jobs/api/jobs-api'

/**
 * The names of the jobs' projects, by project id. A job names its project by id only; the names
 * are the tree's: the projects of every hub the jobs name are loaded (through the tree's own
 * queries, so a hub the tree has open asks nothing), and a job whose hub is not known finds its
 * project among any hub the tree has loaded. A project found in neither is not in the map.
 */
export function useProjectNames(jobs: readonly Job[]): ReadonlyMap<string, string> {
  const queryClient = useQueryClient()
  const hubIds = [...new Set(jobs.flatMap((job) => (job.folder.hubId ? [job.folder.hubId] : [])))]
  // Read for their answers only: each one coming renders again, and the cache is read below.
  useQueries({ queries: hubIds.map((hubId) => treeQueries.children({ kind: 'hub', hubId })) })
  const names = new Map<string, string>()
  const cached = queryClient.getQueriesData<TreeNode[]>({
    queryKey: [...treeQueries.all(), 'children', { kind: 'hub' }],
  })
  for (const [, nodes] of cached) {
    for (const node of nodes ?? []) {
      if (node.kind === 'project') names.set(node.projectId, node.name)
    }
  }
  return names
}
