import { HttpResponse, http } from 'msw'
import { GEOMETRY_CONTENT_TYPE } from '#contract/drawing-geometry.ts'
import type { LocationRow } from '#contract/locations.ts'
import { billSettingsHandlers } from './bill-settings-handlers'
import { type DocumentKey, fakeApi, type SavedDocument, type UploadForm } from './fake-api'
import { projectBillHandlers } from './project-bill-handlers'

const text401 = () => new HttpResponse('Not signed in', { status: 401 })

// The server's words for a job that is not the user's (or not at all), and for one without a result.
const noSuchJob = { status: 404, body: 'There is no such job.' }
const noResult = { status: 404, body: 'This job has no result yet.' }
const noSuchWatch = { status: 404, body: 'There is no such watch.' }

async function record(request: Request): Promise<void> {
  let body: unknown
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    const raw = await request.clone().text()
    try {
      body = JSON.parse(raw)
    } catch {
      body = raw
    }
  }
  fakeApi.requests.push({
    method: request.method,
    url: new URL(request.url),
    headers: new Headers(request.headers),
    body,
  })
}

/** A plain-text answer (the server's refusals) or a JSON one. */
function answer({ status, body }: { status: number; body: unknown }): Response {
  return typeof body === 'string'
    ? new HttpResponse(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
    : HttpResponse.json(body as Record<string, unknown>, { status })
}

/** A list in the form the fake server is set to answer (see ListForm). */
function list(request: Request, data: unknown[] | undefined): Response {
  if (!data) return new HttpResponse('Not found', { status: 404 })
  switch (fakeApi.listForm) {
    case 'array':
      return HttpResponse.json(data)
    case 'data':
      return HttpResponse.json({ data })
    case 'data+links':
      return HttpResponse.json({
        jsonapi: { version: '1.0' },
        links: { self: { href: request.url } },
        data,
      })
  }
}

/** The saved document of a project, or the never-saved one (version 0). */
function savedOf<Key extends DocumentKey>(
  kept: Record<string, SavedDocument<Key>>,
  projectId: string,
  key: Key,
): SavedDocument<Key> {
  return (
    kept[projectId] ??
    ({ version: 0, savedBy: null, savedAt: null, [key]: [] } as unknown as SavedDocument<Key>)
  )
}

/** A saved document as one line of its history. */
const versionOf = <Key extends DocumentKey>(saved: SavedDocument<Key>, key: Key) => ({
  version: saved.version,
  savedBy: saved.savedBy ?? '',
  savedAt: saved.savedAt ?? '',
  rows: saved[key].length,
})

/**
 * GET, history and PUT of a project's versioned document (rules or classification), as the
 * server answers them: If-Match with the version, 428 without it, 412 when another save came
 * in between; a CSV or XLSX body goes through fakeApi.rulesFile. The history is the current
 * version and those a PUT replaced (fakeApi.earlierVersions), newest first; a version's own
 * document, the current one or one a PUT replaced (fakeApi.earlierDocuments).
 */
function versionedDocument(path: 'rules' | 'classification' | 'locations', key: DocumentKey) {
  const kept = () =>
    ({
      rules: fakeApi.rules,
      classification: fakeApi.classification,
      locations: fakeApi.locations,
    })[path] as Record<string, SavedDocument<typeof key>>
  const history = (projectId: string) => {
    const saved = kept()[projectId]
    if (!saved || saved.version === 0) return []
    const earlier = fakeApi.earlierVersions[`${path}:${projectId}`] ?? []
    return [versionOf(saved, key), ...earlier.filter((one) => one.version < saved.version)]
  }
  return [
    http.get(`*/api/boq/projects/:projectId/${path}`, ({ request, params }) => {
      const saved = savedOf(kept(), String(params.projectId), key)
      const format = new URL(request.url).searchParams.get('format')
      if (format === 'csv') return HttpResponse.text(`${path} version ${saved.version}`)
      if (format === 'xlsx') return HttpResponse.arrayBuffer(new ArrayBuffer(8))
      return HttpResponse.json(saved)
    }),
    http.get(`*/api/boq/projects/:projectId/${path}/history`, ({ params }) =>
      HttpResponse.json(history(String(params.projectId))),
    ),
    http.get(`*/api/boq/projects/:projectId/${path}/history/:version`, ({ params }) => {
      const projectId = String(params.projectId)
      const wanted = Number(params.version)
      const saved = kept()[projectId]
      const found =
        saved?.version === wanted
          ? saved
          : fakeApi.earlierDocuments[`${path}:${projectId}`]?.find((d) => d.version === wanted)
      return found
        ? HttpResponse.json(found)
        : answer({ status: 404, body: `There is no version ${wanted} of the ${path}.` })
    }),
    http.put(`*/api/boq/projects/:projectId/${path}`, async ({ request, params }) => {
      const projectId = String(params.projectId)
      const saved = savedOf(kept(), projectId, key)
      const ifMatch = request.headers.get('If-Match')
      if (!ifMatch)
        return answer({ status: 428, body: 'Say which version you changed (If-Match).' })
      if (ifMatch !== `"${saved.version}"`) {
        return answer({
          status: 412,
          body: `Version ${saved.version} was saved by ${saved.savedBy} since version ${ifMatch.replaceAll('"', '')}.`,
        })
      }
      const type = request.headers.get('Content-Type') ?? ''
      let rows: unknown[]
      if (type.includes('json')) {
        rows = ((await request.json()) as Record<string, unknown[]>)[key] ?? []
      } else {
        const parsed = fakeApi.rulesFile(await request.text())
        if (parsed.status !== 200) return answer(parsed)
        rows = (parsed.body as Record<string, unknown[]>)[key] ?? []
      }
      const next = {
        version: saved.version + 1,
        savedBy: fakeApi.profile.name,
        savedAt: '2024-06-07T08:09:10.000Z',
        [key]: rows,
      } as SavedDocument<typeof key>
      fakeApi.earlierVersions[`${path}:${projectId}`] = history(projectId)
      if (saved.version > 0) {
        const earlier = fakeApi.earlierDocuments[`${path}:${projectId}`] ?? []
        fakeApi.earlierDocuments[`${path}:${projectId}`] = [saved, ...earlier]
      }
      kept()[projectId] = next
      return HttpResponse.json(next)
    }),
  ]
}

/** The default answers of the fake server (see fake-api.ts). */
export const handlers = [
  http.all('*/api/*', async ({ request }) => {
    await record(request)
    // Falls through to the matching handler below.
  }),
  http.get('*/api/aps/auth/login', () => HttpResponse.text(fakeApi.loginUrl)),
  http.get('*/api/aps/auth/token', () =>
    fakeApi.signedIn ? HttpResponse.json({ access_token: 'public', expires_in: 3600 }) : text401(),
  ),
  http.get('*/api/aps/auth/profile', () =>
    fakeApi.signedIn ? HttpResponse.json(fakeApi.profile) : text401(),
  ),
  http.get('*/api/aps/auth/logout', () => {
    fakeApi.signedIn = false
    return new HttpResponse(null, { status: 204 })
  }),
  http.get('*/api/aps/hubs', ({ request }) => list(request, fakeApi.hubs)),
  http.get('*/api/aps/hubs/:hubId/projects', ({ request, params }) =>
    list(request, fakeApi.projects[String(params.hubId)]),
  ),
  http.get('*/api/aps/hubs/:hubId/projects/:projectId/contents', ({ request, params }) => {
    const folderId = new URL(request.url).searchParams.get('folder_id')
    return list(request, fakeApi.contents[folderId ?? String(params.projectId)])
  }),
  http.get(
    '*/api/aps/hubs/:hubId/projects/:projectId/contents/:itemId/versions',
    ({ request, params }) => list(request, fakeApi.versions[String(params.itemId)]),
  ),
  http.post('*/api/boq/extract', async ({ request }) => {
    const body = (await request.json()) as Record<string, string>
    return answer(fakeApi.extract(body))
  }),
  http.get('*/api/local/upload', () => HttpResponse.json({ available: fakeApi.uploadAvailable })),
  http.post('*/api/local/upload', async ({ request }) => {
    const body = await request.formData()
    const file = body.get('file')
    const field = (name: string) => {
      const value = body.get(name)
      return typeof value === 'string' ? value : null
    }
    const form: UploadForm = {
      projectId: field('projectId') ?? '',
      folderId: field('folderId') ?? '',
      itemId: field('itemId'),
      fileName: file instanceof File ? file.name : '',
      size: file instanceof Blob ? file.size : 0,
    }
    fakeApi.uploads.push(form)
    return answer(fakeApi.upload(form))
  }),
  http.get('*/api/boq/jobs', () => HttpResponse.json({ data: fakeApi.jobs })),
  http.get('*/api/boq/compare', ({ request }) => {
    const query = new URL(request.url).searchParams
    const found = fakeApi.changeBills[`${query.get('from')}:${query.get('to')}`]
    if (!found) return new HttpResponse('There is no such job.', { status: 404 })
    return typeof found.body === 'string'
      ? new HttpResponse(found.body, { status: found.status })
      : HttpResponse.json(found.body as Record<string, unknown>, { status: found.status })
  }),
  http.get('*/api/boq/jobs/:id/result.json', ({ params }) => {
    const id = String(params.id)
    const kept = fakeApi.results[id]
    if (kept) return answer(kept)
    const found = fakeApi.jobs.some((j) => j.id === id)
    return answer(found ? noResult : noSuchJob)
  }),
  http.get('*/api/boq/jobs/:id/geometry', ({ params }) => {
    const kept = fakeApi.geometries[String(params.id)]
    return kept
      ? HttpResponse.arrayBuffer(kept.slice().buffer, {
          headers: { 'Content-Type': GEOMETRY_CONTENT_TYPE },
        })
      : new HttpResponse('There is no such job.', { status: 404 })
  }),
  http.get('*/api/boq/watches', () => HttpResponse.json({ data: fakeApi.watches })),
  http.post('*/api/boq/watches', async ({ request }) =>
    answer(fakeApi.watch((await request.json()) as Record<string, unknown>)),
  ),
  http.delete('*/api/boq/watches/:id', ({ params }) => {
    const before = fakeApi.watches.length
    fakeApi.watches = fakeApi.watches.filter((w) => w.id !== params.id)
    if (fakeApi.watches.length === before) return answer(noSuchWatch)
    return new HttpResponse(null, { status: 204 })
  }),
  ...versionedDocument('rules', 'rules'),
  ...versionedDocument('classification', 'entries'),
  ...versionedDocument('locations', 'locations'),
  ...projectBillHandlers,
  ...billSettingsHandlers,
  http.post('*/api/boq/jobs/:id/price', async ({ request, params }) => {
    const raw = await request.text()
    return answer(fakeApi.price(String(params.id), raw ? JSON.parse(raw) : {}))
  }),
  http.post('*/api/boq/jobs/:id/locations-preview', async ({ request, params }) =>
    answer(
      fakeApi.locationsPreview(
        String(params.id),
        (await request.json()) as { locations: LocationRow[] },
      ),
    ),
  ),
  http.post('*/api/boq/jobs/:id/reprice', ({ params }) =>
    answer(fakeApi.reprice(String(params.id))),
  ),
  http.get('*/api/boq/jobs/:id', ({ params }) => {
    const found = fakeApi.jobs.find((j) => j.id === params.id)
    return found ? HttpResponse.json(found) : answer(noSuchJob)
  }),
]
