import { resourceTitle } from '../resource-title.ts'
import type { JsonApiResource, StoredVersion, VersionPlace } from '../types.ts'
import { checkFolderId, checkProjectId, parseStorageId } from './ids.ts'
import { PAGE_LIMIT, type Upstream } from './upstream.ts'

const enc = encodeURIComponent

/**
 * The version a storage id names, looked for where the caller says it is: Autodesk has no lookup
 * by storage id. The folder's contents, filtered to items of that name, come with each item's tip
 * version in `included`, so a tip version (the one the tree lists first) takes one call; an older
 * version one more, the item's versions. Undefined when no item of that name in the folder has it.
 */
export async function findStoredVersion(
  upstream: Upstream,
  accessToken: string,
  projectId: string,
  storageId: string,
  near: VersionPlace,
): Promise<StoredVersion | undefined> {
  parseStorageId(storageId)
  const project = enc(checkProjectId(projectId))
  const { items, tips } = await itemsNamed(upstream, accessToken, projectId, near)
  for (const item of items) {
    const tipId = item.relationships?.tip?.data?.id
    const tip = tips.find((r) => r.type === 'versions' && r.id === tipId)
    if (tip && storageOf(tip) === storageId) return described(tip)
  }
  for (const item of items) {
    const versions = await upstream.allPages(
      upstream.url(`/data/v1/projects/${project}/items/${enc(item.id)}/versions`, {
        'page[limit]': String(PAGE_LIMIT),
      }),
      accessToken,
    )
    const version = versions.find((v) => storageOf(v) === storageId)
    if (version) return described(version)
  }
  return undefined
}

/**
 * The newest version of the item named `fileName` in the folder (its tip), or undefined when the
 * folder has no such item.
 */
export async function findLatestVersion(
  upstream: Upstream,
  accessToken: string,
  projectId: string,
  place: VersionPlace,
): Promise<{ itemId: string; versionNumber: number } | undefined> {
  const { items, tips } = await itemsNamed(upstream, accessToken, projectId, place)
  for (const item of items) {
    const tipId = item.relationships?.tip?.data?.id
    const tip = tips.find((r) => r.type === 'versions' && r.id === tipId)
    const versionNumber = tip && described(tip)?.versionNumber
    if (versionNumber !== undefined) return { itemId: item.id, versionNumber }
  }
  return undefined
}

/** The visible items named `fileName` in the folder, with their tip versions (`included`). */
async function itemsNamed(
  upstream: Upstream,
  accessToken: string,
  projectId: string,
  place: VersionPlace,
): Promise<{ items: JsonApiResource[]; tips: JsonApiResource[] }> {
  const project = enc(checkProjectId(projectId))
  const folder = enc(checkFolderId(place.folderId))
  const tips: JsonApiResource[] = []
  const url = upstream.url(`/data/v1/projects/${project}/folders/${folder}/contents`, {
    'filter[type]': 'items',
    'filter[attributes.displayName]': place.fileName,
    'page[limit]': String(PAGE_LIMIT),
  })
  // The filter narrows the answer; the checks here do not rely on it.
  const items = (await upstream.allPages(url, accessToken, tips)).filter(
    (r) =>
      r.type === 'items' &&
      r.attributes?.displayName === place.fileName &&
      r.attributes?.hidden !== true,
  )
  return { items, tips }
}

function storageOf(version: JsonApiResource): string | undefined {
  return version.relationships?.storage?.data?.id
}

/** The name the tree shows for a version (`resourceTitle`) and its number. */
function described(version: JsonApiResource): StoredVersion | undefined {
  const title = resourceTitle(version)
  const versionNumber = version.attributes?.versionNumber
  if (!title) return undefined
  if (typeof versionNumber !== 'number' || !Number.isInteger(versionNumber) || versionNumber < 1) {
    return undefined
  }
  return { name: title, versionNumber }
}
