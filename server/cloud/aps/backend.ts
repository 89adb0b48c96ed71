import type { ApsConfig } from '../../config.ts'
import { AppError } from '../../errors.ts'
import type { CloudBackend, CloudContext, JsonApiResource } from '../types.ts'
import { findLatestVersion, findStoredVersion } from './find-version.ts'
import {
  checkFolderId,
  checkHubId,
  checkItemId,
  checkProjectId,
  isBim360Project,
  parseStorageId,
} from './ids.ts'
import { locateByListings } from './locate.ts'
import { downloadObject, signedDownload } from './oss.ts'
import { createTtlCache } from './ttl-cache.ts'
import { createUpstream, PAGE_LIMIT, type UpstreamOptions } from './upstream.ts'
import { writeFile } from './write-back.ts'

export interface ApsBackendOptions extends Omit<UpstreamOptions, 'baseUrl'> {
  /** How long one user's hubs and projects are reused (default 60 s). */
  cacheTtlMs?: number
}

const enc = encodeURIComponent
const visible = (list: JsonApiResource[]) => list.filter((r) => r.attributes?.hidden !== true)

/**
 * The Autodesk Platform Services cloud: Data Management for the tree and write-back, OSS signed
 * S3 URLs for the bytes. Ids are checked before any upstream call; lists are always whole.
 */
export function createApsCloudBackend(
  settings: Pick<ApsConfig, 'baseUrl'>,
  options: ApsBackendOptions = {},
): CloudBackend & { clearCache(): void } {
  const upstream = createUpstream({ ...options, baseUrl: settings.baseUrl })
  // Hubs and projects allow only 50 calls a minute: a short per-user cache.
  const cache = createTtlCache<JsonApiResource[]>({
    ttlMs: options.cacheTtlMs ?? 60_000,
    now: options.now,
  })
  const page = { 'page[limit]': String(PAGE_LIMIT) }

  return {
    kind: 'aps',

    hubs(ctx) {
      return cache.get(`${ctx.user.userId}\nhubs`, () =>
        upstream.allPages(upstream.url('/project/v1/hubs'), ctx.accessToken),
      )
    },

    async projects(ctx, hubId) {
      const hub = checkHubId(hubId)
      return cache.get(`${ctx.user.userId}\nprojects\n${hub}`, () =>
        upstream.allPages(
          upstream.url(`/project/v1/hubs/${enc(hub)}/projects`, page),
          ctx.accessToken,
        ),
      )
    },

    async contents(ctx, hubId, projectId, folderId) {
      const hub = checkHubId(hubId)
      const project = checkProjectId(projectId)
      if (folderId === undefined) {
        // Non-admin users cannot read the root folder: the top folders are the project's root.
        const url = upstream.url(
          `/project/v1/hubs/${enc(hub)}/projects/${enc(project)}/topFolders`,
          {
            excludeDeleted: 'true',
          },
        )
        return visible(await upstream.allPages(url, ctx.accessToken))
      }
      const folder = checkFolderId(folderId)
      const url = upstream.url(
        `/data/v1/projects/${enc(project)}/folders/${enc(folder)}/contents`,
        page,
      )
      return visible(await upstream.allPages(url, ctx.accessToken))
    },

    async versions(ctx, hubId, projectId, itemId) {
      checkHubId(hubId)
      const project = checkProjectId(projectId)
      const item = checkItemId(itemId)
      const url = upstream.url(
        `/data/v1/projects/${enc(project)}/items/${enc(item)}/versions`,
        page,
      )
      return upstream.allPages(url, ctx.accessToken)
    },

    async storageSize(ctx, projectId, storageId) {
      checkProjectId(projectId)
      parseStorageId(storageId)
      const signed = await signedDownload(upstream, ctx.accessToken, storageId)
      if (signed.size === undefined)
        throw new AppError(502, 'Autodesk did not say how large the drawing is.')
      return signed.size
    },

    storedVersion(ctx, projectId, storageId, near) {
      return findStoredVersion(upstream, ctx.accessToken, projectId, storageId, near)
    },

    locate(ctx, request) {
      return locateByListings(this, ctx, request)
    },

    async checkFolder(ctx, projectId, folderId) {
      const project = checkProjectId(projectId)
      const folder = checkFolderId(folderId)
      const answer = await upstream.json<{ data?: JsonApiResource }>(
        upstream.url(`/data/v1/projects/${enc(project)}/folders/${enc(folder)}`),
        { accessToken: ctx.accessToken },
      )
      if (answer.data?.type !== 'folders' || answer.data.attributes?.hidden === true) {
        throw new AppError(404, 'The folder was not found in Autodesk.')
      }
      if (isBim360Project(project)) await checkCreatePermission(ctx, project, folder)
    },

    async download(ctx, projectId, storageId) {
      checkProjectId(projectId)
      parseStorageId(storageId)
      return downloadObject(upstream, ctx.accessToken, storageId)
    },

    latestVersion(ctx, projectId, folderId, fileName) {
      return findLatestVersion(upstream, ctx.accessToken, projectId, { folderId, fileName })
    },

    upload(ctx, request) {
      return writeFile(upstream, ctx.accessToken, request)
    },

    clearCache() {
      cache.clear()
    },
  }

  /** BIM 360 / ACC folder permissions (CheckPermission command); unknown answers allow. */
  async function checkCreatePermission(ctx: CloudContext, project: string, folder: string) {
    let answer: { data?: { attributes?: { extension?: { data?: { permissions?: unknown } } } } }
    try {
      answer = await upstream.json(upstream.url(`/data/v1/projects/${enc(project)}/commands`), {
        method: 'POST',
        accessToken: ctx.accessToken,
        headers: { 'content-type': 'application/vnd.api+json' },
        body: JSON.stringify({
          jsonapi: { version: '1.0' },
          data: {
            type: 'commands',
            attributes: {
              extension: {
                type: 'commands:autodesk.core:CheckPermission',
                version: '1.0.0',
                data: { requiredActions: ['create'] },
              },
            },
            relationships: { resources: { data: [{ type: 'folders', id: folder }] } },
          },
        }),
      })
    } catch (error) {
      // The command is an extra check: where Autodesk cannot answer it, the upload itself decides.
      if (error instanceof AppError && [400, 404, 405, 501].includes(error.status)) return
      throw error
    }
    const permissions = answer.data?.attributes?.extension?.data?.permissions
    const entry = Array.isArray(permissions)
      ? (permissions as { id?: unknown; permission?: unknown }[]).find((p) => p.id === folder)
      : undefined
    if (entry && entry.permission === false) {
      throw new AppError(403, 'You are not allowed to add files to this folder in Autodesk.')
    }
  }
}
