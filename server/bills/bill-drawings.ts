import { setImmediate as yieldToOthers } from 'node:timers/promises'
import type { ProjectBill } from '../../contract/project-bills.ts'
import { resourceTitle } from '../cloud/resource-title.ts'
import type { CloudBackend, CloudContext, JsonApiResource } from '../cloud/types.ts'
import { AppError } from '../errors.ts'
import { isWatchedDrawing } from '../watches/source.ts'

/** A drawing of a bill as the cloud lists it now: its item, and its versions by storage id. */
export interface CloudDrawing {
  itemId: string
  fileName: string
  /** The folder it was found in (null: named as a single item, its folder not listed). */
  folderId: string | null
  /** Version number by storage id. */
  versions: Map<string, number>
  newestVersionNumber: number | null
  newestStorageId: string | null
}

type Lists = Pick<CloudBackend, 'contents' | 'versions'>

/**
 * Every drawing of a bill: the `.dwg` items in its folders and below them (as the cloud lists
 * them now, so a drawing added later is in), and its single items; each once. A folder or item
 * the person cannot see fails with the cloud's error (404). The walk gives way to other work
 * between folders, so a large tree never holds the server.
 */
export async function billDrawings(
  cloud: Lists,
  ctx: CloudContext,
  place: { hubId: string; projectId: string },
  bill: Pick<ProjectBill, 'folderIds' | 'itemIds'>,
): Promise<CloudDrawing[]> {
  const found = new Map<string, CloudDrawing>()
  const folders = [...bill.folderIds].reverse()
  for (let folderId = folders.pop(); folderId !== undefined; folderId = folders.pop()) {
    await yieldToOthers()
    for (const entry of await cloud.contents(ctx, place.hubId, place.projectId, folderId)) {
      if (entry.type === 'folders') folders.push(entry.id)
      else if (entry.type === 'items' && isWatchedDrawing(resourceTitle(entry))) {
        if (found.has(entry.id)) continue
        const versions = await cloud.versions(ctx, place.hubId, place.projectId, entry.id)
        found.set(entry.id, drawingOf(entry, folderId, versions))
      }
    }
  }
  for (const itemId of bill.itemIds) {
    if (found.has(itemId)) continue
    const versions = await cloud.versions(ctx, place.hubId, place.projectId, itemId)
    if (versions.length === 0) throw new AppError(404, 'There is no such item.')
    found.set(itemId, drawingOf({ id: itemId, type: 'items', attributes: {} }, null, versions))
  }
  return [...found.values()]
}

/**
 * Checks that the person sees every folder and item named (404 else): each folder's contents
 * and each item's versions are listed.
 */
export async function checkSources(
  cloud: Lists,
  ctx: CloudContext,
  place: { hubId: string; projectId: string },
  sources: { folderIds?: string[]; itemIds?: string[] },
): Promise<void> {
  for (const folderId of sources.folderIds ?? []) {
    await cloud.contents(ctx, place.hubId, place.projectId, folderId)
  }
  for (const itemId of sources.itemIds ?? []) {
    const versions = await cloud.versions(ctx, place.hubId, place.projectId, itemId)
    if (versions.length === 0) throw new AppError(404, 'There is no such item.')
  }
}

function drawingOf(
  item: JsonApiResource,
  folderId: string | null,
  versions: JsonApiResource[],
): CloudDrawing {
  const byStorage = new Map<string, number>()
  let newest: { number: number; name: string; storageId: string } | undefined
  for (const version of versions) {
    const storage = version.relationships?.storage?.data
    const number = version.attributes?.versionNumber
    if (!storage || Array.isArray(storage) || typeof number !== 'number') continue
    byStorage.set(storage.id, number)
    if (!newest || number > newest.number) {
      newest = { number, name: resourceTitle(version), storageId: storage.id }
    }
  }
  return {
    itemId: item.id,
    // The item's name as the tree shows it; a single item's from its newest version.
    fileName: resourceTitle(item) || newest?.name || item.id,
    folderId,
    versions: byStorage,
    newestVersionNumber: newest?.number ?? null,
    newestStorageId: newest?.storageId ?? null,
  }
}
