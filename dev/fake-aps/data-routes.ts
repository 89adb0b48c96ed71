import type { Context, Hono } from 'hono'
import {
  arrivals,
  bearer,
  dmError,
  type FakeContext,
  hasScope,
  sleep,
  unauthorized,
} from './context.ts'
import { pageDelay } from './faults.ts'
import {
  folderResource,
  hubResource,
  itemJson,
  itemResource,
  jsonapi,
  page,
  projectResource,
  tipJson,
  versionResource,
} from './json-api.ts'
import type { FakeFolder, FakeItem } from './state.ts'

// biome-ignore lint/suspicious/noExplicitAny: the fake reads request bodies loosely, as Autodesk's validation does
type Body = Record<string, any>

/**
 * Hubs, projects, top folders, folder contents, versions; storage, items and versions creation
 * (a new version is delivered to the webhooks on its folder).
 */
export function registerDataRoutes(app: Hono, ctx: FakeContext): void {
  const { state, faults } = ctx

  /** The caller's grant, or an answer refusing it. */
  function authorize(c: Context, write: boolean) {
    const grant = bearer(c, ctx)
    if (!grant) return { refused: unauthorized(c) }
    const ok = write ? hasScope(grant, 'data:create', 'data:write') : hasScope(grant, 'data:read')
    if (!ok)
      return {
        refused: dmError(
          c,
          403,
          'Forbidden',
          'The token does not have the scope this operation needs.',
        ),
      }
    return { grant }
  }

  function limitOf(c: Context): number | undefined {
    const raw = c.req.query('page[limit]')
    if (raw === undefined) return 200
    const n = Number(raw)
    return Number.isInteger(n) && n >= 1 && n <= 200 ? n : undefined
  }

  async function listPage<T>(
    c: Context,
    path: string,
    all: T[],
    serialize: (entry: T) => string,
    include?: (entry: T) => string | undefined,
  ) {
    const limit = limitOf(c)
    const number = Number(c.req.query('page[number]') ?? '0')
    if (limit === undefined || !Number.isInteger(number) || number < 0) {
      return dmError(
        c,
        400,
        'Bad Request',
        'page[limit] must be 1 to 200 and page[number] 0 or more.',
      )
    }
    // A slow page takes pageDelayMs from its arrival: the fake's own work counts inside that time.
    const body = Buffer.from(
      page(ctx.origin, path, all, new URL(c.req.url).searchParams, limit, serialize, include),
    )
    const wait =
      pageDelay(faults, number) -
      (performance.now() - (arrivals.get(c.req.raw) ?? performance.now()))
    if (wait > 0) await sleep(wait)
    await faults.held(number)
    return c.body(body, 200, {
      'content-type': 'application/vnd.api+json',
      'content-length': String(body.byteLength),
    })
  }

  const projectOf = (c: Context) => {
    const project = state.projects.get(c.req.param('projectId') ?? '')
    const hubId = c.req.param('hubId')
    return project && (hubId === undefined || project.hubId === hubId) ? project : undefined
  }

  app.get('/project/v1/hubs', (c) => {
    const auth = authorize(c, false)
    if (auth.refused) return auth.refused
    return c.json({
      jsonapi,
      links: { self: { href: `${ctx.origin}/project/v1/hubs` } },
      data: [...state.hubs.values()].map((h) => hubResource(ctx.origin, h)),
    })
  })

  app.get('/project/v1/hubs/:hubId', (c) => {
    const auth = authorize(c, false)
    if (auth.refused) return auth.refused
    const hub = state.hubs.get(c.req.param('hubId'))
    if (!hub) return dmError(c, 404, 'Not Found', 'The hub was not found.')
    return c.json({ jsonapi, data: hubResource(ctx.origin, hub) })
  })

  app.get('/project/v1/hubs/:hubId/projects', async (c) => {
    const auth = authorize(c, false)
    if (auth.refused) return auth.refused
    const hub = state.hubs.get(c.req.param('hubId'))
    if (!hub) return dmError(c, 404, 'Not Found', 'The hub was not found.')
    const list = [...state.projects.values()].filter((p) => p.hubId === hub.id)
    return listPage(c, new URL(c.req.url).pathname, list, (p) =>
      JSON.stringify(projectResource(ctx.origin, p, hub)),
    )
  })

  app.get('/project/v1/hubs/:hubId/projects/:projectId', (c) => {
    const auth = authorize(c, false)
    if (auth.refused) return auth.refused
    const project = projectOf(c)
    const hub = project && state.hubs.get(project.hubId)
    if (!project || !hub) return dmError(c, 404, 'Not Found', 'The project was not found.')
    return c.json({ jsonapi, data: projectResource(ctx.origin, project, hub) })
  })

  app.get('/project/v1/hubs/:hubId/projects/:projectId/topFolders', async (c) => {
    const auth = authorize(c, false)
    if (auth.refused) return auth.refused
    const project = projectOf(c)
    if (!project) return dmError(c, 404, 'Not Found', 'The project was not found.')
    const excludeDeleted = c.req.query('excludeDeleted') === 'true'
    const folders = state
      .childrenOf(project.rootFolderId)
      .folders.filter((f) => !(excludeDeleted && f.hidden))
    const delay = pageDelay(faults, 0)
    if (delay > 0) await sleep(delay)
    return c.json({
      jsonapi,
      links: { self: { href: c.req.url } },
      data: folders.map((f) => folderResource(ctx.origin, state, f)),
    })
  })

  const folderOf = (c: Context) => {
    const folder = state.folders.get(c.req.param('folderId') ?? '')
    return folder && folder.projectId === c.req.param('projectId') ? folder : undefined
  }

  app.get('/data/v1/projects/:projectId/folders/:folderId', (c) => {
    const auth = authorize(c, false)
    if (auth.refused) return auth.refused
    const folder = folderOf(c)
    if (!folder) return dmError(c, 404, 'Not Found', 'The folder was not found.')
    return c.json({
      jsonapi,
      links: { self: { href: c.req.url } },
      data: folderResource(ctx.origin, state, folder),
    })
  })

  app.get('/data/v1/projects/:projectId/folders/:folderId/contents', async (c) => {
    const auth = authorize(c, false)
    if (auth.refused) return auth.refused
    const folder = folderOf(c)
    if (!folder) return dmError(c, 404, 'Not Found', 'The folder was not found.')
    const includeHidden = c.req.query('includeHidden') === 'true'
    const type = c.req.query('filter[type]')
    const name = c.req.query('filter[attributes.displayName]')
    const { folders, items } = state.childrenOf(folder.id)
    // Byte order, not localeCompare: cheap enough for folders of thousands.
    const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
    const list: (FakeFolder | FakeItem)[] = [
      ...(type === 'items'
        ? []
        : folders
            .filter((f) => (includeHidden || !f.hidden) && (name === undefined || f.name === name))
            .sort((a, b) => byName(a.name, b.name))),
      ...(type === 'folders'
        ? []
        : items
            .filter(
              (i) => (includeHidden || !i.hidden) && (name === undefined || i.displayName === name),
            )
            .sort((a, b) => byName(a.displayName, b.displayName))),
    ]
    return listPage(
      c,
      new URL(c.req.url).pathname,
      list,
      (entry) =>
        'displayName' in entry
          ? itemJson(ctx.origin, state, entry)
          : JSON.stringify(folderResource(ctx.origin, state, entry)),
      // As Autodesk answers: the items' tip versions in `included`.
      (entry) => ('displayName' in entry ? tipJson(ctx.origin, state, entry) : undefined),
    )
  })

  const itemOf = (c: Context) => {
    const item = state.items.get(c.req.param('itemId') ?? '')
    return item && item.projectId === c.req.param('projectId') ? item : undefined
  }

  app.get('/data/v1/projects/:projectId/items/:itemId', (c) => {
    const auth = authorize(c, false)
    if (auth.refused) return auth.refused
    const item = itemOf(c)
    if (!item) return dmError(c, 404, 'Not Found', 'The item was not found.')
    return c.json({ jsonapi, data: itemResource(ctx.origin, state, item) })
  })

  app.get('/data/v1/projects/:projectId/items/:itemId/versions', async (c) => {
    const auth = authorize(c, false)
    if (auth.refused) return auth.refused
    const item = itemOf(c)
    if (!item) return dmError(c, 404, 'Not Found', 'The item was not found.')
    const list = [...item.versions].reverse()
    return listPage(c, new URL(c.req.url).pathname, list, (v) =>
      JSON.stringify(versionResource(ctx.origin, state, item, v)),
    )
  })

  app.get('/data/v1/projects/:projectId/versions/:versionId', (c) => {
    const auth = authorize(c, false)
    if (auth.refused) return auth.refused
    const found = state.versionById(c.req.param('versionId'))
    if (!found || found.item.projectId !== c.req.param('projectId'))
      return dmError(c, 404, 'Not Found', 'The version was not found.')
    return c.json({ jsonapi, data: versionResource(ctx.origin, state, found.item, found.version) })
  })

  async function body(c: Context): Promise<Body | undefined> {
    try {
      return (await c.req.json()) as Body
    } catch {
      return undefined
    }
  }

  const bim = (projectId: string) => projectId.startsWith('b.')
  const fileTypes = (projectId: string) =>
    bim(projectId)
      ? { item: 'items:autodesk.bim360:File', version: 'versions:autodesk.bim360:File' }
      : { item: 'items:autodesk.core:File', version: 'versions:autodesk.core:File' }

  app.post('/data/v1/projects/:projectId/storage', async (c) => {
    const auth = authorize(c, true)
    if (auth.refused) return auth.refused
    const project = projectOf(c)
    const payload = await body(c)
    const data = payload?.data
    if (!project) return dmError(c, 404, 'Not Found', 'The project was not found.')
    const name = data?.attributes?.name
    const target = state.folders.get(data?.relationships?.target?.data?.id ?? '')
    if (
      data?.type !== 'objects' ||
      typeof name !== 'string' ||
      name === '' ||
      !target ||
      target.projectId !== project.id
    ) {
      return dmError(
        c,
        400,
        'Bad Request',
        'A storage location needs type objects, a name and a target folder of this project.',
      )
    }
    if (!target.canCreate) return dmError(c, 403, 'Forbidden', 'You cannot upload to this folder.')
    const id = state.storeObject(name)
    const [bucket, objectKey] = id.split(':').pop()?.split('/') ?? []
    return c.json(
      {
        jsonapi,
        links: { self: { href: `${ctx.origin}/oss/v2/buckets/${bucket}/objects/${objectKey}` } },
        data: {
          type: 'objects',
          id,
          relationships: { target: { data: { type: 'folders', id: target.id } } },
        },
      },
      201,
    )
  })

  function completedObject(id: unknown) {
    const object = typeof id === 'string' ? state.objects.get(id) : undefined
    return object?.bytes ? (id as string) : undefined
  }

  app.post('/data/v1/projects/:projectId/items', async (c) => {
    const auth = authorize(c, true)
    if (auth.refused) return auth.refused
    const project = projectOf(c)
    if (!project) return dmError(c, 404, 'Not Found', 'The project was not found.')
    const payload = await body(c)
    const data = payload?.data
    const included = Array.isArray(payload?.included) ? payload.included[0] : undefined
    const types = fileTypes(project.id)
    const parent = state.folders.get(data?.relationships?.parent?.data?.id ?? '')
    const displayName = data?.attributes?.displayName
    if (
      data?.type !== 'items' ||
      typeof displayName !== 'string' ||
      !parent ||
      parent.projectId !== project.id
    ) {
      return dmError(
        c,
        400,
        'Bad Request',
        'An item needs type items, a displayName and a parent folder of this project.',
      )
    }
    if (
      data.attributes?.extension?.type !== types.item ||
      included?.attributes?.extension?.type !== types.version
    ) {
      return dmError(
        c,
        400,
        'Bad Request',
        `This project takes ${types.item} items and ${types.version} versions.`,
      )
    }
    if (included?.type !== 'versions' || data.relationships?.tip?.data?.id !== included.id) {
      return dmError(c, 400, 'Bad Request', 'The tip version must be the included version.')
    }
    const storageId = completedObject(included?.relationships?.storage?.data?.id)
    if (!storageId)
      return dmError(
        c,
        400,
        'Bad Request',
        'The storage object is missing or its upload was not completed.',
      )
    if (!parent.canCreate) return dmError(c, 403, 'Forbidden', 'You cannot upload to this folder.')
    if (state.findItem(parent.id, displayName))
      return dmError(c, 409, 'Conflict', 'An item with this name already exists in the folder.')
    const item = state.addItem(parent.id, displayName, [])
    const version = state.addVersion(item, storageId, included.attributes?.name ?? displayName)
    ctx.webhooks.versionAdded(item, version)
    return c.json(
      {
        jsonapi,
        links: {
          self: {
            href: `${ctx.origin}/data/v1/projects/${encodeURIComponent(project.id)}/items/${encodeURIComponent(item.id)}`,
          },
        },
        data: itemResource(ctx.origin, state, item),
        included: [versionResource(ctx.origin, state, item, version)],
      },
      201,
    )
  })

  app.post('/data/v1/projects/:projectId/versions', async (c) => {
    const auth = authorize(c, true)
    if (auth.refused) return auth.refused
    const project = projectOf(c)
    if (!project) return dmError(c, 404, 'Not Found', 'The project was not found.')
    const data = (await body(c))?.data
    const item: FakeItem | undefined = state.items.get(data?.relationships?.item?.data?.id ?? '')
    if (
      data?.type !== 'versions' ||
      !item ||
      item.projectId !== project.id ||
      typeof data.attributes?.name !== 'string'
    ) {
      return dmError(
        c,
        400,
        'Bad Request',
        'A version needs type versions, a name and an item of this project.',
      )
    }
    if (data.attributes.extension?.type !== fileTypes(project.id).version) {
      return dmError(
        c,
        400,
        'Bad Request',
        `This project takes ${fileTypes(project.id).version} versions.`,
      )
    }
    const storageId = completedObject(data.relationships?.storage?.data?.id)
    if (!storageId)
      return dmError(
        c,
        400,
        'Bad Request',
        'The storage object is missing or its upload was not completed.',
      )
    const folder = state.folders.get(item.folderId)
    if (!folder?.canCreate) return dmError(c, 403, 'Forbidden', 'You cannot upload to this folder.')
    const version = state.addVersion(item, storageId, data.attributes.name)
    ctx.webhooks.versionAdded(item, version)
    return c.json(
      {
        jsonapi,
        links: {
          self: {
            href: `${ctx.origin}/data/v1/projects/${encodeURIComponent(project.id)}/versions/${encodeURIComponent(version.id)}`,
          },
        },
        data: versionResource(ctx.origin, state, item, version),
        included: [itemResource(ctx.origin, state, item)],
      },
      201,
    )
  })

  app.post('/data/v1/projects/:projectId/commands', async (c) => {
    const auth = authorize(c, false)
    if (auth.refused) return auth.refused
    const project = projectOf(c)
    if (!project) return dmError(c, 404, 'Not Found', 'The project was not found.')
    const data = (await body(c))?.data
    if (
      data?.type !== 'commands' ||
      data.attributes?.extension?.type !== 'commands:autodesk.core:CheckPermission'
    ) {
      return dmError(c, 400, 'Bad Request', 'Only the CheckPermission command is known here.')
    }
    const required: string[] = data.attributes.extension.data?.requiredActions ?? []
    const resources: { type: string; id: string }[] = data.relationships?.resources?.data ?? []
    const permissions = resources.map((r) => {
      const folder = state.folders.get(r.id)
      const details = { view: !!folder, download: !!folder, create: !!folder?.canCreate }
      return {
        ...r,
        details,
        permission: required.every((a) => details[a as keyof typeof details] ?? false),
      }
    })
    return c.json({
      jsonapi,
      data: {
        type: 'commands',
        id: crypto.randomUUID(),
        attributes: {
          extension: {
            type: 'commands:autodesk.core:CheckPermission',
            version: '1.0.0',
            data: { requiredActions: required, permissions },
          },
        },
        relationships: { resources: { data: resources } },
      },
    })
  })
}
