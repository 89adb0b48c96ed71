import type { CloudBackend, CloudContext } from '../cloud/types.ts'
import { AppError } from '../errors.ts'

/** How long a project seen by a user is taken as still seen (the cloud is asked again after). */
const SEEN_FOR_MS = 60_000
const MAX_REMEMBERED = 1000

/**
 * Whether the signed-in user can see a project: it is among the projects of one of their hubs,
 * as the cloud lists them. Remembered for a minute per user, so that a rules page does not ask
 * Autodesk for every hub's projects at each read. A project they cannot see is a 404, as one
 * that does not exist.
 */
export function projectAccess(cloud: CloudBackend) {
  const seen = new Map<string, { name: string; until: number }>()

  return async function visibleProject(
    ctx: CloudContext,
    projectId: string,
  ): Promise<{ name: string }> {
    const key = `${ctx.user.userId}\n${projectId}`
    const remembered = seen.get(key)
    if (remembered && remembered.until > Date.now()) return { name: remembered.name }
    const hubs = await cloud.hubs(ctx)
    const lists = await Promise.all(hubs.map((hub) => cloud.projects(ctx, hub.id)))
    const project = lists.flat().find((p) => p.id === projectId)
    if (!project) throw new AppError(404, 'There is no such project.')
    const name = String(project.attributes?.name ?? project.id)
    if (seen.size >= MAX_REMEMBERED) seen.clear()
    seen.set(key, { name, until: Date.now() + SEEN_FOR_MS })
    return { name }
  }
}

export type VisibleProject = ReturnType<typeof projectAccess>
