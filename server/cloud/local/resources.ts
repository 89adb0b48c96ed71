import type { Stats } from 'node:fs'
import { extname } from 'node:path'
import { VERSION_NOT_WHOLE } from '#contract/cloud.ts'
import type { JsonApiResource } from '../types.ts'
import { makeId, makeStorageId, makeVersionId } from './ids.ts'
import type { VersionInfo } from './version-store.ts'

/** JSON:API objects in the shapes Autodesk's Data Management API answers (contract/cloud.ts). */

const API = '/api/aps/hubs'
const ACC = 'https://acc.autodesk.com/docs/files/projects'

function enc(id: string): string {
  return encodeURIComponent(id)
}

/** The ACC web link, whose `folderUrn=` the app reads to know the version's folder. */
function accWebView(projectId: string, folderId: string, entityId: string): string {
  const project = projectId.replace(/^b\./, '')
  return `${ACC}/${project}?folderUrn=${enc(folderId)}&entityId=${enc(entityId)}`
}

function times(info: Stats): { createTime: string; lastModifiedTime: string } {
  // Some file systems report no birth time (epoch 0): fall back to the modification time.
  const created = info.birthtimeMs > 0 ? info.birthtime : info.mtime
  return { createTime: created.toISOString(), lastModifiedTime: info.mtime.toISOString() }
}

export function hubResource(rel: string, name: string): JsonApiResource {
  const id = makeId('hub', rel)
  return {
    type: 'hubs',
    id,
    attributes: {
      name,
      region: 'US',
      extension: { type: 'hubs:autodesk.bim360:Account', version: '1.0' },
    },
    links: { self: { href: `${API}/${enc(id)}` } },
  }
}

export function projectResource(hubId: string, rel: string, name: string): JsonApiResource {
  const id = makeId('project', rel)
  return {
    type: 'projects',
    id,
    attributes: { name, extension: { type: 'projects:autodesk.bim360:Project', version: '1.0' } },
    links: { self: { href: `${API}/${enc(hubId)}/projects/${enc(id)}` } },
    relationships: { hub: { data: { type: 'hubs', id: hubId } } },
  }
}

export interface Place {
  hubId: string
  projectId: string
  /** The folder the entry sits in (undefined for the project's top folders). */
  parentFolderId?: string
}

export function folderResource(
  place: Place,
  rel: string,
  name: string,
  info: Stats,
): JsonApiResource {
  const id = makeId('folder', rel)
  const base = `${API}/${enc(place.hubId)}/projects/${enc(place.projectId)}`
  return {
    type: 'folders',
    id,
    attributes: {
      name,
      displayName: name,
      ...times(info),
      hidden: false,
      extension: { type: 'folders:autodesk.bim360:Folder', version: '1.0' },
    },
    links: {
      self: { href: `${base}/contents?folder_id=${enc(id)}` },
      webView: { href: accWebView(place.projectId, id, id) },
    },
    relationships: place.parentFolderId
      ? { parent: { data: { type: 'folders', id: place.parentFolderId } } }
      : undefined,
  }
}

export function itemResource(
  place: Place & { parentFolderId: string },
  rel: string,
  name: string,
  info: Stats,
): JsonApiResource {
  const id = makeId('item', rel)
  const base = `${API}/${enc(place.hubId)}/projects/${enc(place.projectId)}`
  return {
    type: 'items',
    id,
    attributes: {
      displayName: name,
      ...times(info),
      hidden: false,
      extension: { type: 'items:autodesk.bim360:File', version: '1.0' },
    },
    // Kept lean: a folder of 10,000 items is answered whole (versions carry the webView link).
    links: { self: { href: `${base}/contents/${enc(id)}/versions` } },
  }
}

/**
 * Autodesk's `extension.data.processState` of a version: complete once its file is whole; a file
 * dropped by hand that is still changing is not yet (it is shown, and recorded once settled).
 */
const WHOLE = 'PROCESSING_COMPLETE'

/** A version of the local cloud whose file is still being written by hand: not one to bill yet. */
export function stillArriving(version: JsonApiResource): boolean {
  const extension = version.attributes?.extension as { data?: { processState?: unknown } }
  return extension?.data?.processState === VERSION_NOT_WHOLE
}

export function versionResource(
  place: Place & { parentFolderId: string },
  itemRel: string,
  name: string,
  version: VersionInfo,
): JsonApiResource {
  const id = makeVersionId(itemRel, version.number)
  const itemId = makeId('item', itemRel)
  const storageId = makeStorageId(itemRel, version.number)
  const base = `${API}/${enc(place.hubId)}/projects/${enc(place.projectId)}`
  return {
    type: 'versions',
    id,
    attributes: {
      name,
      displayName: name,
      versionNumber: version.number,
      createTime: version.createTime,
      createUserName: version.userName,
      lastModifiedTime: version.createTime,
      lastModifiedUserName: version.userName,
      storageSize: version.size,
      fileType: extname(name).slice(1).toLowerCase(),
      extension: {
        type: 'versions:autodesk.bim360:File',
        version: '1.0',
        data: { processState: version.settling ? VERSION_NOT_WHOLE : WHOLE },
      },
    },
    links: {
      self: { href: `${base}/contents/${enc(itemId)}/versions?version=${version.number}` },
      webView: { href: accWebView(place.projectId, place.parentFolderId, id) },
    },
    relationships: {
      item: { data: { type: 'items', id: itemId } },
      storage: { data: { type: 'objects', id: storageId } },
    },
  }
}
