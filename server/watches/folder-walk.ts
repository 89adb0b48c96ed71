import { setImmediate as yieldToOthers } from 'node:timers/promises'
import type { CloudBackend, CloudContext, JsonApiResource } from '../cloud/types.ts'
import type { WatchedVersion } from '../jobs/watch-types.ts'
import { isWatchedDrawing } from './source.ts'

/** The watched folder, as the cloud's lists name it. */
export interface WalkedFolder {
  hubId: string
  projectId: string
  folderId: string
}

/**
 * Every drawing version under a folder and its subfolders, through the cloud's own lists (so the
 * local cloud records files dropped by hand as it does for the tree). `changed` says whether an
 * item's versions must be listed (its modification time moved since the last walk); the walk
 * gives way to other work between folders, so a large tree never holds the server.
 */
export async function walkDrawingVersions(
  cloud: Pick<CloudBackend, 'contents' | 'versions'>,
  ctx: CloudContext,
  top: WalkedFolder,
  changed: (item: JsonApiResource) => boolean = () => true,
): Promise<WatchedVersion[]> {
  const found: WatchedVersion[] = []
  const folders = [top.folderId]
  for (let folderId = folders.pop(); folderId !== undefined; folderId = folders.pop()) {
    await yieldToOthers()
    for (const entry of await cloud.contents(ctx, top.hubId, top.projectId, folderId)) {
      if (entry.type === 'folders') folders.push(entry.id)
      else if (entry.type === 'items' && isWatchedDrawing(titleOf(entry)) && changed(entry)) {
        for (const version of await cloud.versions(ctx, top.hubId, top.projectId, entry.id)) {
          const seen = watchedVersion(version, top.projectId, folderId)
          if (seen) found.push(seen)
        }
      }
    }
  }
  return found
}

function watchedVersion(
  version: JsonApiResource,
  projectId: string,
  folderId: string,
): WatchedVersion | undefined {
  const storage = version.relationships?.storage?.data
  const name = titleOf(version)
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

function titleOf(resource: JsonApiResource): string {
  const { name, displayName } = resource.attributes ?? {}
  const title = resource.type === 'versions' ? (name ?? displayName) : (displayName ?? name)
  return typeof title === 'string' ? title : ''
}
