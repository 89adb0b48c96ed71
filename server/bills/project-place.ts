import type { CloudBackend, CloudContext } from '../cloud/types.ts'
import { AppError } from '../errors.ts'

/** How long a project seen by a person is taken as still seen (the cloud is asked again after). */
const SEEN_FOR_MS = 60_000
const MAX_REMEMBERED = 1000

/**
 * The hub of a project the signed-in person can see (its folders are listed through it): among
 * the projects of one of their hubs, as the cloud lists them, remembered for a minute per person.
 * A project they cannot see is a 404, as one that does not exist (as the rules routes answer).
 */
export function projectPlaces(cloud: Pick<CloudBackend, 'hubs' | 'projects'>) {
  const seen = new Map<string, { hubId: string; until: number }>()

  return async function projectPlace(
    ctx: CloudContext,
    projectId: string,
  ): Promise<{ hubId: string }> {
    const key = `${ctx.user.userId}\n${projectId}`
    const remembered = seen.get(key)
    if (remembered && remembered.until > Date.now()) return { hubId: remembered.hubId }
    for (const hub of await cloud.hubs(ctx)) {
      const projects = await cloud.projects(ctx, hub.id)
      if (!projects.some((project) => project.id === projectId)) continue
      if (seen.size >= MAX_REMEMBERED) seen.clear()
      seen.set(key, { hubId: hub.id, until: Date.now() + SEEN_FOR_MS })
      return { hubId: hub.id }
    }
    throw new AppError(404, 'There is no such project.')
  }
}

export type ProjectPlace = ReturnType<typeof projectPlaces>
