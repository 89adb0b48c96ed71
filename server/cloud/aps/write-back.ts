import { AppError } from '../../errors.ts'
import type { JsonApiResource, UploadRequest, UploadResult } from '../types.ts'
import {
  checkFileName,
  checkFolderId,
  checkProjectId,
  isBim360Project,
  parseStorageId,
} from './ids.ts'
import { uploadObject } from './oss.ts'
import { PAGE_LIMIT, type Upstream } from './upstream.ts'
import { badAnswer } from './upstream-errors.ts'

const JSON_API = { 'content-type': 'application/vnd.api+json', accept: 'application/vnd.api+json' }

/** Item and version types: bim360 ones for BIM 360 / ACC (`b.`), core ones elsewhere (`a.`). */
function fileTypes(projectId: string): { item: string; version: string } {
  return isBim360Project(projectId)
    ? { item: 'items:autodesk.bim360:File', version: 'versions:autodesk.bim360:File' }
    : { item: 'items:autodesk.core:File', version: 'versions:autodesk.core:File' }
}

/**
 * Writes a file into a folder the way Autodesk documents it: POST storage → signeds3upload
 * GET → PUT → signeds3upload POST → POST items (first version) or POST versions (name exists).
 */
export async function writeFile(
  upstream: Upstream,
  accessToken: string,
  request: UploadRequest,
): Promise<UploadResult> {
  const projectId = checkProjectId(request.projectId)
  const folderId = checkFolderId(request.folderId)
  const fileName = checkFileName(request.fileName)
  if (!(request.bytes instanceof Uint8Array)) throw new AppError(400, 'Nothing to upload.')
  const project = encodeURIComponent(projectId)

  const existing = await findItem(upstream, accessToken, projectId, folderId, fileName)
  const storageId = await createStorage(upstream, accessToken, projectId, folderId, fileName)
  await uploadObject(upstream, accessToken, storageId, request.bytes)

  const types = fileTypes(projectId)
  const post = (path: string, body: unknown) =>
    upstream.json<{ data?: JsonApiResource; included?: JsonApiResource[] }>(
      upstream.url(`/data/v1/projects/${project}/${path}`),
      { method: 'POST', accessToken, headers: JSON_API, body: JSON.stringify(body) },
    )
  const addVersion = async (itemId: string): Promise<UploadResult> => {
    const created = await post('versions', {
      jsonapi: { version: '1.0' },
      data: {
        type: 'versions',
        attributes: { name: fileName, extension: { type: types.version, version: '1.0' } },
        relationships: {
          item: { data: { type: 'items', id: itemId } },
          storage: { data: { type: 'objects', id: storageId } },
        },
      },
    })
    const version = created.data
    if (!version || typeof version.id !== 'string') throw badAnswer('a new version')
    return {
      itemId,
      versionId: version.id,
      versionNumber: numberOr(version.attributes?.versionNumber, 0),
      createdItem: false,
    }
  }

  if (existing) return addVersion(existing)
  try {
    const created = await post('items', {
      jsonapi: { version: '1.0' },
      data: {
        type: 'items',
        attributes: { displayName: fileName, extension: { type: types.item, version: '1.0' } },
        relationships: {
          tip: { data: { type: 'versions', id: '1' } },
          parent: { data: { type: 'folders', id: folderId } },
        },
      },
      included: [
        {
          type: 'versions',
          id: '1',
          attributes: { name: fileName, extension: { type: types.version, version: '1.0' } },
          relationships: { storage: { data: { type: 'objects', id: storageId } } },
        },
      ],
    })
    const item = created.data
    const version = created.included?.find((r) => r.type === 'versions')
    if (!item || typeof item.id !== 'string') throw badAnswer('a new item')
    return {
      itemId: item.id,
      versionId: typeof version?.id === 'string' ? version.id : '',
      versionNumber: numberOr(version?.attributes?.versionNumber, 1),
      createdItem: true,
    }
  } catch (error) {
    // Someone created the same name meanwhile: add our file as its next version instead.
    if (!(error instanceof AppError) || error.status !== 409) throw error
    const raced = await findItem(upstream, accessToken, projectId, folderId, fileName)
    if (!raced) throw error
    return addVersion(raced)
  }
}

/** The id of the visible item named `fileName` in the folder, if there is one. */
async function findItem(
  upstream: Upstream,
  accessToken: string,
  projectId: string,
  folderId: string,
  fileName: string,
): Promise<string | undefined> {
  const url = upstream.url(
    `/data/v1/projects/${encodeURIComponent(projectId)}/folders/${encodeURIComponent(folderId)}/contents`,
    {
      'filter[type]': 'items',
      'filter[attributes.displayName]': fileName,
      'page[limit]': String(PAGE_LIMIT),
    },
  )
  // The filter narrows the pages; the check below does not rely on it.
  const contents = await upstream.allPages(url, accessToken)
  return contents.find(
    (r) =>
      r.type === 'items' && r.attributes?.displayName === fileName && r.attributes?.hidden !== true,
  )?.id
}

async function createStorage(
  upstream: Upstream,
  accessToken: string,
  projectId: string,
  folderId: string,
  fileName: string,
): Promise<string> {
  const answer = await upstream.json<{ data?: { id?: unknown } }>(
    upstream.url(`/data/v1/projects/${encodeURIComponent(projectId)}/storage`),
    {
      method: 'POST',
      accessToken,
      headers: JSON_API,
      body: JSON.stringify({
        jsonapi: { version: '1.0' },
        data: {
          type: 'objects',
          attributes: { name: fileName },
          relationships: { target: { data: { type: 'folders', id: folderId } } },
        },
      }),
    },
  )
  const id = answer.data?.id
  try {
    parseStorageId(id)
  } catch {
    throw badAnswer('a storage location')
  }
  return id as string
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback
}
