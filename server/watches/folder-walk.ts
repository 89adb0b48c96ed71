import { setImmediate as yieldToOthers } from 'node:timers/promises'
import { resourceTitle } from '../cloud/resource-title.ts'
import type { CloudBackend, CloudContext, JsonApiResource } from '../cloud/types.ts'
import { isWatchedDrawing } from './source.ts'
import type { WatchedVersion } from './store/types.ts'

/** The watched folder, as the cloud's lists name it. */
export interface WalkedFolder {
  hubId: string
  projectId: string
  folderId: string
}

/** Which versions a walk answers. */
export interface WalkFilter {
  /** Whether an item's versions must be listed (its modification time moved since the last walk). */
  changed?: (item: JsonApiResource) => boolean
  /** Only versions the cloud says were created at or after this time (ms since the epoch). */
  createdSince?: number
}

/**
 * Every drawing version under a folder and its subfolders, through the cloud's own lists (so the
 * local cloud records files dropped by hand as it does for the tree). The walk gives way to other
 * work between folders, so a large tree never holds the server.
 */
export async function walkDrawingVersions(
  cloud: Pick<CloudBackend, 'contents' | 'versions'>,
  ctx: CloudContext,
  top: WalkedFolder,
  filter: WalkFilter = {},
): Promise<WatchedVersion[]> {
  const { changed = () => true, createdSince } = filter
  const found: WatchedVersion[] = []
  const folders = [top.folderId]
  for (let folderId = folders.pop(); folderId !== undefined; folderId = folders.pop()) {
    await yieldToOthers()
    for (const entry of await cloud.contents(ctx, top.hubId, top.projectId, folderId)) {
      if (entry.type === 'folders') folders.push(entry.id)
      else if (
        entry.type === 'items' &&
        isWatchedDrawing(resourceTitle(entry)) &&
        changed(entry) &&
        !modifiedBefore(entry, createdSince)
      ) {
        const versions = await cloud.versions(ctx, top.hubId, top.projectId, entry.id)
        const seen = versions
          .filter((version) => createdAtOrAfter(version, createdSince))
          .flatMap((version) => watchedVersion(version, top.projectId, folderId) ?? [])
        // Oldest first (the lists give the newest first): noted in this order, a drawing's
        // versions are extracted in it, each bill compared with the one before.
        seen.sort((a, b) => (a.fileVersionNumber ?? 0) - (b.fileVersionNumber ?? 0))
        found.push(...seen)
      }
    }
  }
  return found
}

/** An item last modified before `since` has no version since: its versions are not listed. */
function modifiedBefore(item: JsonApiResource, since: number | undefined): boolean {
  const modified = Date.parse(String(item.attributes?.lastModifiedTime ?? ''))
  return since !== undefined && modified < since
}

/** A version without a creation time is not taken for a new one. */
function createdAtOrAfter(version: JsonApiResource, since: number | undefined): boolean {
  return since === undefined || Date.parse(String(version.attributes?.createTime ?? '')) >= since
}

function watchedVersion(
  version: JsonApiResource,
  projectId: string,
  folderId: string,
): WatchedVersion | undefined {
  const storage = version.relationships?.storage?.data
  const name = resourceTitle(version)
  if (!storage || Array.isArray(storage) || !isWatchedDrawing(name)) return undefined
  const number = version.attributes?.versionNumber
  return {
    fileStorageId: storage.id,
    fileName: name,
    projectId,
    fileFolderId: folderId,
    ...(typeof number === 'number' ? { fileVersionNumber: number } : {}),
  }
}
