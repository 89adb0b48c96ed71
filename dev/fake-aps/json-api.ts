import type {
  FakeApsState,
  FakeFolder,
  FakeHub,
  FakeItem,
  FakeProject,
  FakeVersion,
} from './state.ts'

/** Response shapes as Autodesk's Data Management OpenAPI file shows them. */
const enc = encodeURIComponent
const bare = (id: string) => id.replace(/^[ab]\./, '')
const jsonapi = { version: '1.0' }

export function hubResource(origin: string, hub: FakeHub) {
  const type = hub.kind === 'bim360' ? 'hubs:autodesk.bim360:Account' : 'hubs:autodesk.core:Hub'
  return {
    type: 'hubs',
    id: hub.id,
    attributes: {
      name: hub.name,
      extension: {
        type,
        version: '1.0',
        schema: { href: `${origin}/schema/v1/versions/${enc(type)}-1.0` },
        data: {},
      },
      region: 'US',
    },
    links: { self: { href: `${origin}/project/v1/hubs/${enc(hub.id)}` } },
    relationships: {
      projects: {
        links: { related: { href: `${origin}/project/v1/hubs/${enc(hub.id)}/projects` } },
      },
    },
  }
}

export function projectResource(origin: string, project: FakeProject, hub: FakeHub) {
  const bim = hub.kind === 'bim360'
  const type = bim ? 'projects:autodesk.bim360:Project' : 'projects:autodesk.core:Project'
  const self = `${origin}/project/v1/hubs/${enc(hub.id)}/projects/${enc(project.id)}`
  return {
    type: 'projects',
    id: project.id,
    attributes: {
      name: project.name,
      scopes: ['global'],
      extension: { type, version: '1.0', data: bim ? { projectType: 'ACC' } : {} },
    },
    links: {
      self: { href: self },
      webView: { href: `${origin}/docs/files/projects/${bare(project.id)}` },
    },
    relationships: {
      hub: {
        data: { type: 'hubs', id: hub.id },
        links: { related: { href: `${origin}/project/v1/hubs/${enc(hub.id)}` } },
      },
      rootFolder: {
        data: { type: 'folders', id: project.rootFolderId },
        meta: {
          link: {
            href: `${origin}/data/v1/projects/${enc(project.id)}/folders/${enc(project.rootFolderId)}`,
          },
        },
      },
      topFolders: { links: { related: { href: `${self}/topFolders` } } },
    },
  }
}

export function folderResource(origin: string, state: FakeApsState, folder: FakeFolder) {
  const base = `${origin}/data/v1/projects/${enc(folder.projectId)}/folders/${enc(folder.id)}`
  const { folders, items } = state.childrenOf(folder.id)
  return {
    type: 'folders',
    id: folder.id,
    attributes: {
      name: folder.name,
      displayName: folder.name,
      createTime: folder.createTime,
      createUserId: state.user.id,
      createUserName: state.user.name,
      lastModifiedTime: folder.createTime,
      lastModifiedUserId: state.user.id,
      lastModifiedUserName: state.user.name,
      lastModifiedTimeRollup: folder.createTime,
      objectCount: folders.length + items.length,
      hidden: folder.hidden,
      extension: {
        type: 'folders:autodesk.bim360:Folder',
        version: '1.0',
        data: {
          allowedTypes: ['folders', 'items:autodesk.bim360:File'],
          visibleTypes: ['folders', 'items:autodesk.bim360:File'],
        },
      },
    },
    links: {
      self: { href: base },
      webView: {
        href: `${origin}/docs/files/projects/${bare(folder.projectId)}?folderUrn=${enc(folder.id)}`,
      },
    },
    relationships: {
      parent: folder.parentId
        ? {
            data: { type: 'folders', id: folder.parentId },
            links: { related: { href: `${base}/parent` } },
          }
        : { links: { related: { href: `${base}/parent` } } },
      refs: {
        links: { self: { href: `${base}/relationships/refs` }, related: { href: `${base}/refs` } },
      },
      links: { links: { self: { href: `${base}/relationships/links` } } },
      contents: { links: { related: { href: `${base}/contents` } } },
    },
  }
}

// Big folders are listed again and again (benches): an item's JSON is built once per version,
// so the fake's own cost stays small next to the page delay it models.
const itemJsonCache = new WeakMap<FakeItem, { versions: number; json: string }>()

export function itemJson(origin: string, state: FakeApsState, item: FakeItem): string {
  const cached = itemJsonCache.get(item)
  if (cached && cached.versions === item.versions.length) return cached.json
  const json = JSON.stringify(itemResource(origin, state, item))
  itemJsonCache.set(item, { versions: item.versions.length, json })
  return json
}

const tipJsonCache = new WeakMap<FakeItem, { versions: number; json: string }>()

/** An item's tip version as JSON text (what folder contents carry in `included`), or undefined. */
export function tipJson(origin: string, state: FakeApsState, item: FakeItem): string | undefined {
  const tip = item.versions.at(-1)
  if (!tip) return undefined
  const cached = tipJsonCache.get(item)
  if (cached && cached.versions === item.versions.length) return cached.json
  const json = JSON.stringify(versionResource(origin, state, item, tip))
  tipJsonCache.set(item, { versions: item.versions.length, json })
  return json
}

export function itemResource(origin: string, state: FakeApsState, item: FakeItem) {
  const base = `${origin}/data/v1/projects/${enc(item.projectId)}/items/${enc(item.id)}`
  const tip = item.versions.at(-1)
  const bim = item.projectId.startsWith('b.')
  return {
    type: 'items',
    id: item.id,
    attributes: {
      displayName: item.displayName,
      createTime: item.createTime,
      createUserId: state.user.id,
      createUserName: state.user.name,
      lastModifiedTime: tip?.createTime ?? item.createTime,
      lastModifiedUserId: state.user.id,
      lastModifiedUserName: state.user.name,
      hidden: item.hidden,
      reserved: false,
      extension: {
        type: bim ? 'items:autodesk.bim360:File' : 'items:autodesk.core:File',
        version: '1.0',
        data: {},
      },
    },
    links: { self: { href: base } },
    relationships: {
      tip: {
        data: tip ? { type: 'versions', id: tip.id } : null,
        links: { related: { href: `${base}/tip` } },
      },
      versions: { links: { related: { href: `${base}/versions` } } },
      parent: {
        data: { type: 'folders', id: item.folderId },
        links: {
          related: {
            href: `${origin}/data/v1/projects/${enc(item.projectId)}/folders/${enc(item.folderId)}`,
          },
        },
      },
      refs: {
        links: { self: { href: `${base}/relationships/refs` }, related: { href: `${base}/refs` } },
      },
      links: { links: { self: { href: `${base}/relationships/links` } } },
    },
  }
}

export function versionResource(
  origin: string,
  state: FakeApsState,
  item: FakeItem,
  version: FakeVersion,
) {
  const base = `${origin}/data/v1/projects/${enc(item.projectId)}/versions/${enc(version.id)}`
  const bim = item.projectId.startsWith('b.')
  const object = state.objects.get(version.storageId)
  const [bucket, objectKey] = version.storageId.split(':').pop()?.split('/') ?? []
  // ACC links carry folderUrn as a query value; BIM 360 / other ones a folders/{id}/detail path.
  const webView = bim
    ? `${origin}/docs/files/projects/${bare(item.projectId)}?folderUrn=${enc(item.folderId)}&entityId=${enc(version.id)}&viewModel=detail&moduleId=folders`
    : `${origin}/projects/${bare(item.projectId)}/folders/${enc(item.folderId)}/detail/viewer/items/${enc(version.id)}`
  return {
    type: 'versions',
    id: version.id,
    attributes: {
      name: version.name,
      displayName: version.name,
      createTime: version.createTime,
      createUserId: state.user.id,
      createUserName: version.userName,
      lastModifiedTime: version.createTime,
      lastModifiedUserId: state.user.id,
      lastModifiedUserName: version.userName,
      versionNumber: version.number,
      mimeType: 'application/octet-stream',
      fileType: version.name.includes('.')
        ? version.name.slice(version.name.lastIndexOf('.') + 1)
        : '',
      storageSize: object?.bytes?.byteLength ?? 0,
      extension: {
        type: bim ? 'versions:autodesk.bim360:File' : 'versions:autodesk.core:File',
        version: '1.0',
        data: { storageUrn: version.storageId, storageType: 'OSS', conformingStatus: 'NONE' },
      },
    },
    links: { self: { href: base }, webView: { href: webView } },
    relationships: {
      item: {
        data: { type: 'items', id: item.id },
        links: {
          related: {
            href: `${origin}/data/v1/projects/${enc(item.projectId)}/items/${enc(item.id)}`,
          },
        },
      },
      refs: {
        links: { self: { href: `${base}/relationships/refs` }, related: { href: `${base}/refs` } },
      },
      links: { links: { self: { href: `${base}/relationships/links` } } },
      storage: {
        data: { type: 'objects', id: version.storageId },
        meta: {
          link: { href: `${origin}/oss/v2/buckets/${bucket}/objects/${objectKey}?scopes=global` },
        },
      },
    },
  }
}

/** A JSON:API list page with Autodesk's first/prev/next links (page[number] is 0-based). */
export function page<T>(
  origin: string,
  path: string,
  all: T[],
  query: URLSearchParams,
  limit: number,
  /** One entry as JSON text. */
  serialize: (entry: T) => string,
  /** What the page's `included` holds for one entry (folder contents: an item's tip version). */
  include?: (entry: T) => string | undefined,
): string {
  const number = Number(query.get('page[number]') ?? '0')
  const start = number * limit
  const entries = all.slice(start, start + limit)
  const data = entries.map(serialize)
  const included = include ? entries.map(include).filter((json) => json !== undefined) : []
  const link = (n: number) => {
    const q = new URLSearchParams(query)
    q.set('page[number]', String(n))
    q.set('page[limit]', String(limit))
    return { href: `${origin}${path}?${q.toString()}` }
  }
  const links: Record<string, { href: string }> = { self: link(number) }
  if (all.length > limit) links.first = link(0)
  if (number > 0) links.prev = link(number - 1)
  if (start + limit < all.length) links.next = link(number + 1)
  const tail = included.length > 0 ? `,"included":[${included.join(',')}]` : ''
  return `{"jsonapi":${JSON.stringify(jsonapi)},"links":${JSON.stringify(links)},"data":[${data.join(',')}]${tail}}`
}

export { jsonapi }
