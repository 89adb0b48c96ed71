import { decodeId, decodeStorageId, makeId } from '../cloud/local/ids.ts'
import type { CloudBackend, CloudContext, JsonApiResource } from '../cloud/types.ts'
import type { JobFolder, JobRecord } from './types.ts'

/** Where a drawing version sits: what the job card names and what opens its folder in the tree. */
export interface SourcePlace {
  fileVersionNumber?: number
  folder: JobFolder
}

interface SourceRequest {
  projectId: string
  fileFolderId: string
  fileStorageId: string
}

/**
 * What the cloud tells cheaply, at submit time, about where the drawing is (after the folder and
 * the storage id were checked). Never fails: what cannot be learnt is left out, and the job runs
 * all the same.
 *
 * - Local cloud: the ids are the paths, so everything comes from them without any I/O: the hub,
 *   the folder chain from the project's top folder down, the folder's name, the version number.
 * - Autodesk: the hub comes from the hubs and projects lists (kept per user for a minute, and the
 *   person has just browsed them), the folder's name and chain from the project's top folders
 *   when the drawing's folder is one of them. A deeper folder's chain would take one call per
 *   level through the `parent` relationships, which the cloud seam does not offer: the app opens
 *   what its tree has loaded instead. The version number is not in an Autodesk storage id: the
 *   route learns it with the version's own name (`CloudBackend.storedVersion`).
 */
export async function locateSource(
  cloud: CloudBackend,
  ctx: CloudContext,
  request: SourceRequest,
): Promise<SourcePlace> {
  if (cloud.kind === 'local') {
    const place = fromLocalIds(request)
    if (place) return place
  }
  return fromListings(cloud, ctx, request).catch(() => ({ folder: {} }))
}

/** The local cloud's ids are base64url paths: `<hub>/<project>/<top folder>/…/<folder>`. */
function fromLocalIds(request: SourceRequest): SourcePlace | undefined {
  const projectRel = decodeId('project', request.projectId)
  const folderRel = decodeId('folder', request.fileFolderId)
  if (!projectRel || !folderRel || projectRel.split('/').length !== 2) return undefined
  if (!folderRel.startsWith(`${projectRel}/`)) return undefined
  const parts = folderRel.split('/')
  const path = parts.slice(2).map((_, i) => makeId('folder', parts.slice(0, 3 + i).join('/')))
  const version = decodeStorageId(request.fileStorageId)?.version
  return {
    ...(version === undefined ? {} : { fileVersionNumber: version }),
    folder: {
      name: parts.at(-1) as string,
      hubId: makeId('hub', parts[0] as string),
      path,
    },
  }
}

async function fromListings(
  cloud: CloudBackend,
  ctx: CloudContext,
  request: SourceRequest,
): Promise<SourcePlace> {
  const hubId = await hubOf(cloud, ctx, request.projectId)
  if (!hubId) return { folder: {} }
  const top = await cloud.contents(ctx, hubId, request.projectId).catch(() => [])
  const folder = top.find((r) => r.type === 'folders' && r.id === request.fileFolderId)
  const name = folder && nameOf(folder)
  return {
    folder: name ? { name, hubId, path: [request.fileFolderId] } : { hubId },
  }
}

/** The hub whose projects include `projectId`. */
async function hubOf(
  cloud: CloudBackend,
  ctx: CloudContext,
  projectId: string,
): Promise<string | undefined> {
  for (const hub of await cloud.hubs(ctx)) {
    const projects = await cloud.projects(ctx, hub.id).catch(() => [])
    if (projects.some((p) => p.id === projectId)) return hub.id
  }
  return undefined
}

/**
 * The number of the job's version, for a job recorded without one (the route learns it at submit
 * time now): the cloud's own lookup of the version by its storage id, near the job's folder and
 * name. Undefined when it cannot be found.
 */
export async function findVersionNumber(
  cloud: CloudBackend,
  ctx: CloudContext,
  job: Pick<JobRecord, 'projectId' | 'fileFolderId' | 'fileStorageId' | 'fileName'>,
): Promise<number | undefined> {
  const near = { folderId: job.fileFolderId, fileName: job.fileName }
  return (await cloud.storedVersion(ctx, job.projectId, job.fileStorageId, near))?.versionNumber
}

/** The title the tree shows: a folder's `name`, an item's `displayName`. */
function nameOf(resource: JsonApiResource): string | undefined {
  const { name, displayName } = resource.attributes ?? {}
  const title = resource.type === 'items' ? (displayName ?? name) : (name ?? displayName)
  return typeof title === 'string' && title ? title : undefined
}
