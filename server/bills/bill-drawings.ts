import { setImmediate as yieldToOthers } from 'node:timers/promises'
import type { ProjectBill } from '#contract/project-bills.ts'
import { resourceTitle } from '../cloud/resource-title.ts'
import type { CloudBackend, CloudContext, JsonApiResource } from '../cloud/types.ts'
import { AppError } from '../errors.ts'
import { eachAtOnce } from '../lib/each-at-once.ts'
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

/** A bill's drawings as the cloud lists them, and the folders and items it named that are gone. */
export interface BillSources {
  drawings: CloudDrawing[]
  /** The bill's own folders the cloud no longer lists for the person (their drawings left out). */
  goneFolders: string[]
  /** The bill's single items the cloud no longer lists for the person. */
  goneItems: string[]
}

/** Items whose versions are listed at once (a folder of hundreds is not listed one by one). */
const LISTED_AT_ONCE = 8

/**
 * Every drawing of a bill: the `.dwg` items in its folders and below them (as the cloud lists
 * them now, so a drawing added later is in), and its single items; each once. A folder or item
 * of the bill that is gone (deleted, moved out of reach, or no longer the person's to see) is
 * said, and the rest is listed. The walk gives way to other work between folders, so a large
 * tree never holds the server.
 */
export async function billDrawings(
  cloud: Lists,
  ctx: CloudContext,
  place: { hubId: string; projectId: string },
  bill: Pick<ProjectBill, 'folderIds' | 'itemIds'>,
): Promise<BillSources> {
  const found = new Map<string, { item: JsonApiResource; folderId: string | null }>()
  const goneFolders: string[] = []
  const own = new Set(bill.folderIds)
  const folders = [...bill.folderIds].reverse()
  for (let folderId = folders.pop(); folderId !== undefined; folderId = folders.pop()) {
    await yieldToOthers()
    const entries = await cloud
      .contents(ctx, place.hubId, place.projectId, folderId)
      .catch((error: unknown) => (own.has(folderId) && isGone(error) ? undefined : rethrow(error)))
    if (!entries) {
      goneFolders.push(folderId)
      continue
    }
    for (const entry of entries) {
      if (entry.type === 'folders') folders.push(entry.id)
      else if (entry.type === 'items' && isWatchedDrawing(resourceTitle(entry))) {
        if (!found.has(entry.id)) found.set(entry.id, { item: entry, folderId })
      }
    }
  }
  for (const itemId of bill.itemIds) {
    if (!found.has(itemId)) {
      found.set(itemId, { item: { id: itemId, type: 'items', attributes: {} }, folderId: null })
    }
  }
  const listed = [...found.values()]
  const versions: (JsonApiResource[] | undefined)[] = new Array(listed.length)
  await eachAtOnce(listed, LISTED_AT_ONCE, async ({ item }, index) => {
    versions[index] = await cloud
      .versions(ctx, place.hubId, place.projectId, item.id)
      .catch((error: unknown) => (isGone(error) ? [] : rethrow(error)))
  })
  const drawings: CloudDrawing[] = []
  const goneItems: string[] = []
  listed.forEach(({ item, folderId }, index) => {
    const own = versions[index] ?? []
    // A drawing in a folder lists its versions; one named alone with none is gone.
    if (own.length === 0 && folderId === null) goneItems.push(item.id)
    else drawings.push(drawingOf(item, folderId, own))
  })
  return { drawings, goneFolders, goneItems }
}

/** The cloud's answer for what is not there, or not the person's to see. */
function isGone(error: unknown): boolean {
  return error instanceof AppError && (error.status === 404 || error.status === 403)
}

function rethrow(error: unknown): never {
  throw error
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
