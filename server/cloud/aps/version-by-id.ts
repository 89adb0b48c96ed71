import type { ApsConfig } from '../../config.ts'
import { resourceTitle } from '../resource-title.ts'
import type { CloudContext, JsonApiResource } from '../types.ts'
import {
  checkFolderId,
  checkItemId,
  checkProjectId,
  checkVersionId,
  parseStorageId,
} from './ids.ts'
import { createUpstream, type UpstreamOptions } from './upstream.ts'
import { badAnswer } from './upstream-errors.ts'

/** A version as a watch records it. */
export interface ApsVersion {
  fileStorageId: string
  /** The version's own file name, as the tree shows it (`resourceTitle`). */
  fileName: string
  fileVersionNumber: number
  /** The folder of the version's item. */
  fileFolderId: string
}

/** A version by its id (what Autodesk's events name), read with the person's token. */
export interface ApsVersions {
  /** Fails with the app's error: 404 when the person cannot see it, 502 for an odd answer. */
  version(ctx: CloudContext, projectId: string, versionId: string): Promise<ApsVersion>
}

const enc = encodeURIComponent

export function createApsVersions(
  settings: Pick<ApsConfig, 'baseUrl'>,
  options: Omit<UpstreamOptions, 'baseUrl'> = {},
): ApsVersions {
  const upstream = createUpstream({ ...options, baseUrl: settings.baseUrl })
  const read = (path: string, accessToken: string) =>
    upstream
      .json<{ data?: JsonApiResource }>(upstream.url(path), { accessToken })
      .then((answer) => answer.data)

  return {
    async version(ctx, projectId, versionId) {
      const project = enc(checkProjectId(projectId))
      const version = await read(
        `/data/v1/projects/${project}/versions/${enc(checkVersionId(versionId))}`,
        ctx.accessToken,
      )
      const versionNumber = version?.attributes?.versionNumber
      const fileName = version ? resourceTitle(version) : ''
      const storageId = version?.relationships?.storage?.data?.id
      const itemId = version?.relationships?.item?.data?.id
      if (
        version?.type !== 'versions' ||
        !fileName ||
        typeof versionNumber !== 'number' ||
        !Number.isInteger(versionNumber) ||
        versionNumber < 1
      ) {
        throw badAnswer('a version')
      }
      parseStorageId(storageId)
      // The version does not name its folder; its item does.
      const item = await read(
        `/data/v1/projects/${project}/items/${enc(checkItemId(itemId))}`,
        ctx.accessToken,
      )
      const folderId = item?.relationships?.parent?.data?.id
      return {
        fileStorageId: storageId as string,
        fileName,
        fileVersionNumber: versionNumber,
        fileFolderId: checkFolderId(folderId),
      }
    },
  }
}
