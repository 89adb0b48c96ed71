import type { SourcePlace, SourceRequest } from '../types.ts'
import { decodeId, decodeStorageId, makeId } from './ids.ts'

/**
 * The local cloud's ids are base64url paths (`<hub>/<project>/<top folder>/…/<folder>`), so
 * everything comes from them without any I/O: the hub, the folder chain from the project's top
 * folder down, the folder's name, the version number. Ids that do not fit tell nothing.
 */
export function locateByIds(request: SourceRequest): SourcePlace {
  const projectRel = decodeId('project', request.projectId)
  const folderRel = decodeId('folder', request.fileFolderId)
  if (!projectRel || !folderRel || projectRel.split('/').length !== 2) return { folder: {} }
  if (!folderRel.startsWith(`${projectRel}/`)) return { folder: {} }
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
