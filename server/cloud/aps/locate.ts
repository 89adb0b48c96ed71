import { resourceTitle } from '../resource-title.ts'
import type { CloudBackend, CloudContext, SourcePlace, SourceRequest } from '../types.ts'

/**
 * Where a version is, from Autodesk's lists: the hub from the hubs and projects lists (kept per
 * user for a minute, and the person has just browsed them), the folder's name and chain from the
 * project's top folders when the drawing's folder is one of them. A deeper folder's chain would
 * take one call per level through the `parent` relationships: the app opens what its tree has
 * loaded instead. The version number is not in an Autodesk storage id (`storedVersion` learns it
 * with the version's own name). Never fails: what cannot be learnt is left out.
 */
export async function locateByListings(
  cloud: Pick<CloudBackend, 'hubs' | 'projects' | 'contents'>,
  ctx: CloudContext,
  request: SourceRequest,
): Promise<SourcePlace> {
  try {
    const hubId = await hubOf(cloud, ctx, request.projectId)
    if (!hubId) return { folder: {} }
    const top = await cloud.contents(ctx, hubId, request.projectId).catch(() => [])
    const folder = top.find((r) => r.type === 'folders' && r.id === request.fileFolderId)
    const name = folder && resourceTitle(folder)
    return { folder: name ? { name, hubId, path: [request.fileFolderId] } : { hubId } }
  } catch {
    return { folder: {} }
  }
}

/** The hub whose projects include `projectId`. */
async function hubOf(
  cloud: Pick<CloudBackend, 'hubs' | 'projects'>,
  ctx: CloudContext,
  projectId: string,
): Promise<string | undefined> {
  for (const hub of await cloud.hubs(ctx)) {
    const projects = await cloud.projects(ctx, hub.id).catch(() => [])
    if (projects.some((p) => p.id === projectId)) return hub.id
  }
  return undefined
}
