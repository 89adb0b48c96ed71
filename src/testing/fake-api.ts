// The fake server every test talks to (through MSW): a small cloud, a session, jobs.
// Tests change `fakeApi` directly, or override one route with server.use().
import type { CloudResource } from '#contract/cloud.ts'
import type { LocationRow } from '#contract/locations.ts'
import type { ClassificationEntry } from '#contract/takeoff-rules.ts'
import type { PricedJob, PriceRequest, SavedVersion } from '#contract/takeoff-rules-api.ts'
import type { Job } from '../features/jobs/api/jobs-api'
import type { Watch } from '../features/watches/api/watches-api'
import { defaultBillSettings, type FakeBillSettings } from './bill-settings-fixtures'
import {
  accWebView,
  bim360WebView,
  fakePricing,
  folder,
  hub,
  item,
  job as makeJob,
  watch as makeWatch,
  project,
  version,
} from './fixtures'
import { defaultProjectBills, type FakeProjectBills } from './project-bill-fixtures'

export type RecordedRequest = {
  method: string
  url: URL
  headers: Headers
  body: unknown
}

/** What an upload's form carried (POST /api/local/upload). */
export type UploadForm = {
  projectId: string
  folderId: string
  itemId: string | null
  fileName: string
  size: number
}

/**
 * How the fake server answers the lists of hubs, projects, contents and versions: a bare array (as
 * the real server), a `{data: [...]}` document, or one with `links` and `jsonapi` beside `data`
 * (as Autodesk's own API).
 */
export type ListForm = 'array' | 'data' | 'data+links'

export const LIST_FORMS: readonly ListForm[] = ['array', 'data', 'data+links']

export type FakeApi = {
  signedIn: boolean
  profile: { userId: string; name: string; picture: string }
  loginUrl: string
  hubs: CloudResource[]
  /** hubId → projects */
  projects: Record<string, CloudResource[]>
  /** projectId → top folders; folderId → contents */
  contents: Record<string, CloudResource[]>
  /** itemId → versions */
  versions: Record<string, CloudResource[]>
  listForm: ListForm
  jobs: Job[]
  /**
   * What GET /api/boq/jobs/{id}/result.json answers, by job id (a BOQ, or the server's refusal as
   * text); a job not here answers 404 as the server does for one without a result.
   */
  results: Record<string, { status: number; body: unknown }>
  /**
   * What GET /api/boq/jobs/{id}/geometry answers, by job id (encoded geometry); a job not here
   * answers 404 as the server does for one kept without geometry.
   */
  geometries: Record<string, Uint8Array>
  /** What GET /api/boq/compare answers, by `from:to`; a pair not here answers 404. */
  changeBills: Record<string, { status: number; body: unknown }>
  /** What POST /api/boq/extract answers; the default queues a job. */
  extract: (body: Record<string, string>) => { status: number; body: unknown }
  /**
   * What GET /api/local/upload answers as `available`: true plays local mode (uploads offered),
   * false (the default) Autodesk mode, where the screen is as specified.
   */
  uploadAvailable: boolean
  /** What POST /api/local/upload answers; the default writes the drawing into this cloud. */
  upload: (form: UploadForm) => { status: number; body: unknown }
  /** Every upload's form, in order. */
  uploads: UploadForm[]
  /**
   * A project's saved takeoff rules and classification (GET/PUT …/projects/{id}/rules and
   * /classification); a project not here has never saved (version 0, empty).
   */
  rules: Record<string, SavedDocument<'rules'>>
  classification: Record<string, SavedDocument<'entries'>>
  /** A project's saved locations (GET/PUT …/projects/{id}/locations), versioned alike. */
  locations: Record<string, SavedDocument<'locations'>>
  /**
   * The versions saved before the current one, newest first, by `rules:<projectId>` or
   * `classification:<projectId>`: each PUT through the fake server keeps the version it replaces
   * here, and GET …/history answers the current version and these.
   */
  earlierVersions: Record<string, SavedVersion[]>
  /**
   * The documents of versions saved before the current one, with their rows, by the same keys
   * (GET …/history/{version} answers them, and the current version): each PUT through the fake
   * server keeps the document it replaces here.
   */
  earlierDocuments: Record<
    string,
    (SavedDocument<'rules'> | SavedDocument<'entries'> | SavedDocument<'locations'>)[]
  >
  /**
   * What PUT …/rules and …/classification answer to a CSV or XLSX body (the server parses files;
   * the fake does not): the rows the file held (`{rules}` or `{entries}`), or the server's
   * refusal as text. The default refuses.
   */
  rulesFile: (body: string) => { status: number; body: unknown }
  /**
   * What POST /api/boq/jobs/{id}/price and …/reprice answer; the default prices the job's
   * project with a toy engine (fakePricing) using the request's rules and classification, or
   * the saved ones.
   */
  price: (jobId: string, request: PriceRequest) => { status: number; body: unknown }
  /**
   * What POST /api/boq/jobs/{id}/reprice answers; the default prices the job as `price` does
   * with the saved tables and keeps that as its bill of record: the kept result's `priced`, the
   * job's `pricedWith`, and its workbook's next version written back.
   */
  reprice: (jobId: string) => { status: number; body: unknown }
  /**
   * What POST /api/boq/jobs/{id}/locations-preview answers; the default finds one zone per row
   * (named and on the layer its glob says, 10 m² by 14 m) in a job it has, 404 else.
   */
  locationsPreview: (
    jobId: string,
    request: { locations: LocationRow[] },
  ) => {
    status: number
    body: unknown
  }
  /** The signed-in user's watches, newest first (GET, POST and DELETE /api/boq/watches). */
  watches: Watch[]
  /** What POST /api/boq/watches answers; the default watches a folder this cloud has (404 else). */
  watch: (body: Record<string, unknown>) => { status: number; body: unknown }
  /** The projects' bills and their issues (…/projects/{id}/bills and below). */
  projectBills: FakeProjectBills
  /** The projects' bill settings (…/projects/{id}/bill-settings and below). */
  billSettings: FakeBillSettings
  requests: RecordedRequest[]
}

/** The key of a versioned document's rows: rules, classification entries, locations. */
export type DocumentKey = 'rules' | 'entries' | 'locations'

/** A versioned document as the fake server keeps it (rules, classification entries, locations). */
export type SavedDocument<Key extends DocumentKey> = {
  version: number
  savedBy: string | null
  savedAt: string | null
} & Record<Key, unknown[]>

/** Ids of the default cloud, for tests to refer to. */
export const ids = {
  hub: 'b.demo-hub',
  tower: 'b.tower',
  empty: 'b.empty',
  plans: 'urn:adsk.wipprod:fs.folder:co.plans',
  level1: 'urn:adsk.wipprod:fs.folder:co.level1',
  floor: 'urn:adsk.wipprod:dm.lineage:floor',
  upper: 'urn:adsk.wipprod:dm.lineage:upper',
  dotted: 'urn:adsk.wipprod:dm.lineage:dotted',
  readme: 'urn:adsk.wipprod:dm.lineage:readme',
  sheet: 'urn:adsk.wipprod:dm.lineage:sheet',
  stair: 'urn:adsk.wipprod:dm.lineage:stair',
}

export function defaultFakeApi(): FakeApi {
  const inPlans = (itemId: string) => accWebView(ids.tower, ids.plans, itemId)
  return {
    signedIn: true,
    profile: { userId: 'u-1', name: 'Ada Lovelace', picture: 'https://cloud.test/ada.png' },
    loginUrl: 'http://localhost:3000/api/aps/auth/callback?code=abc&state=xyz',
    hubs: [hub('Demo Hub', ids.hub)],
    projects: { [ids.hub]: [project('Tower', ids.tower), project('Empty project', ids.empty)] },
    contents: {
      [ids.tower]: [folder('Plans', ids.plans)],
      [ids.empty]: [],
      [ids.plans]: [
        folder('Level 1', ids.level1),
        item('floor.dwg', ids.floor),
        item('UPPER.DWG', ids.upper),
        item('site.plan.dwg', ids.dotted),
        item('README', ids.readme),
        item('sheet.pdf', ids.sheet),
      ],
      [ids.level1]: [item('stair.dwg', ids.stair)],
    },
    versions: {
      [ids.floor]: [
        version({
          displayName: 'floor.dwg',
          versionNumber: 2,
          createTime: '2024-03-04T05:06:07.000Z',
          user: 'Ada Lovelace',
          storageId: 'urn:adsk.objects:os.object:wip.dm.prod/floor-v2.dwg',
          webView: inPlans(ids.floor),
        }),
        version({
          displayName: 'floor.dwg',
          versionNumber: 1,
          createTime: '2024-01-02T03:04:05.000Z',
          user: 'Charles Babbage',
          webView: inPlans(ids.floor),
        }),
      ],
      [ids.upper]: [version({ displayName: 'UPPER.DWG', webView: inPlans(ids.upper) })],
      [ids.dotted]: [version({ displayName: 'site.plan.dwg', webView: inPlans(ids.dotted) })],
      [ids.readme]: [version({ displayName: 'README', webView: inPlans(ids.readme) })],
      [ids.sheet]: [version({ displayName: 'sheet.pdf', webView: inPlans(ids.sheet) })],
      [ids.stair]: [
        version({
          displayName: 'stair.dwg',
          storageId: 'urn:adsk.objects:os.object:wip.dm.prod/stair.dwg',
          webView: bim360WebView(ids.tower, ids.level1, ids.stair),
        }),
      ],
    },
    listForm: 'array',
    jobs: [],
    results: {},
    geometries: {},
    changeBills: {},
    extract: (body) => {
      const created = makeJob({
        fileName: body.fileName,
        projectId: body.projectId,
        fileFolderId: body.fileFolderId,
        fileStorageId: body.fileStorageId,
        units: unitsIn(body),
      })
      fakeApi.jobs.unshift(created)
      return { status: 202, body: created }
    },
    uploadAvailable: false,
    upload: (form) => writeUpload(form),
    uploads: [],
    rules: {},
    classification: {},
    locations: {},
    earlierVersions: {},
    earlierDocuments: {},
    rulesFile: () => text(400, 'row 1: the fake server reads no files'),
    locationsPreview: (jobId, { locations }) => {
      if (!fakeApi.jobs.some((j) => j.id === jobId)) return text(404, 'There is no such job.')
      return {
        status: 200,
        body: {
          jobId,
          units: { length: 'm', area: 'm²' },
          zones: locations.map((row, i) => ({
            id: `Z${i + 1}`,
            name: row.layer,
            path: row.layer,
            layer: row.layer,
            area: 10,
            perimeter: 14,
            label: { source: 'layer' },
            row: i + 1,
          })),
          rows: locations.map((row, i) => ({
            row: i + 1,
            layer: row.layer,
            zones: 1,
            unnamed: 0,
            warnings: [],
          })),
          warnings: [],
        },
      }
    },
    price: (jobId, request) => {
      const found = fakeApi.jobs.find((j) => j.id === jobId)
      if (!found) return text(404, 'There is no such job.')
      const saved = fakeApi.rules[found.projectId]
      const rules = (request.rules ?? saved?.rules ?? []) as Parameters<typeof fakePricing>[0]
      const system = fakeApi.classification[found.projectId]
      const entries = (request.classification ?? system?.entries ?? []) as ClassificationEntry[]
      return {
        status: 200,
        body: {
          jobId,
          rulesVersion: request.rules ? null : (saved?.version ?? 0),
          classificationVersion: request.classification ? null : (system?.version ?? 0),
          priced: fakePricing(rules, entries),
        },
      }
    },
    reprice: (jobId) => keepRepriced(jobId),
    watches: [],
    watch: (body) => {
      const folderId = String(body.fileFolderId ?? '')
      const name = folderName(folderId)
      if (name === null) return text(404, 'There is no such folder, or you cannot see it.')
      const created = makeWatch({
        projectId: String(body.projectId ?? ''),
        fileFolderId: folderId,
        folder: { name, hubId: ids.hub, path: null },
        units: unitsIn(body),
      })
      fakeApi.watches.unshift(created)
      return { status: 201, body: created }
    },
    projectBills: defaultProjectBills(),
    billSettings: defaultBillSettings(),
    requests: [],
  }
}

/** The job priced again with its project's saved tables, kept as its bill of record. */
function keepRepriced(jobId: string): { status: number; body: unknown } {
  const answer = fakeApi.price(jobId, {})
  const index = fakeApi.jobs.findIndex((j) => j.id === jobId)
  const found = fakeApi.jobs[index]
  if (answer.status !== 200 || !found) return answer
  const priced = answer.body as PricedJob
  const result = found.result
  const written = result && {
    fileName: result.fileName,
    itemId: result.itemId,
    versionNumber: result.versionNumber + 1,
  }
  fakeApi.jobs[index] = {
    ...found,
    pricedWith: {
      rulesVersion: priced.rulesVersion ?? 0,
      classificationVersion: priced.classificationVersion ?? 0,
    },
    ...(result && written ? { result: { ...result, versionNumber: written.versionNumber } } : {}),
  }
  const kept = fakeApi.results[jobId]
  if (kept && typeof kept.body === 'object') {
    fakeApi.results[jobId] = { ...kept, body: { ...kept.body, priced: priced.priced } }
  }
  return { status: 200, body: { ...priced, ...(written ? { written } : {}) } }
}

/** The name of a folder this cloud has, or null. */
function folderName(folderId: string): string | null {
  for (const contents of Object.values(fakeApi.contents)) {
    const found = contents.find((r) => r.type === 'folders' && r.id === folderId)
    if (found) return found.attributes?.name ?? null
  }
  return null
}

const text = (status: number, body: string) => ({ status, body })

/**
 * The local cloud's upload, in short: a `.dwg` name (the item's own with `itemId`) into a folder
 * this cloud has; a name already there is its next version, a new one a new item.
 */
export function writeUpload(form: UploadForm): { status: number; body: unknown } {
  const contents = fakeApi.contents[form.folderId]
  if (!contents) return text(404, 'Folder not found.')
  const named = form.itemId ? contents.find((r) => r.id === form.itemId) : undefined
  if (form.itemId && !named) return text(404, 'Item not found.')
  const fileName = named?.attributes?.displayName ?? form.fileName
  if (!fileName.endsWith('.dwg')) {
    return text(
      400,
      `Only .dwg drawings are accepted, and the name must end in ".dwg" exactly (lower case): "${fileName}" does not.`,
    )
  }
  let itemId = contents.find((r) => r.attributes?.displayName === fileName)?.id
  if (!itemId) {
    itemId = `urn:adsk.wipprod:dm.lineage:up-${encodeURIComponent(fileName)}`
    contents.push(item(fileName, itemId))
  }
  const versions = fakeApi.versions[itemId] ?? []
  fakeApi.versions[itemId] = versions
  const versionNumber = versions.length + 1
  versions.unshift(
    version({
      displayName: fileName,
      versionNumber,
      createTime: '2024-05-06T07:08:09.000Z',
      webView: accWebView(form.projectId, form.folderId, itemId),
    }),
  )
  return { status: 201, body: { itemId, versionNumber, fileName } }
}

/** The `units` a POST body carried, as the server keeps them (null when none). */
function unitsIn(body: Record<string, unknown>): Job['units'] {
  const units = body.units
  return units && typeof units === 'object' ? (units as Job['units']) : null
}

export let fakeApi: FakeApi = defaultFakeApi()

export function resetFakeApi(): void {
  fakeApi = defaultFakeApi()
}

/** Requests made so far whose path (without query) equals `path`. */
export function requestsTo(path: string, method = 'GET'): RecordedRequest[] {
  return fakeApi.requests.filter(
    (r) => r.method === method && decodeURIComponent(r.url.pathname) === path,
  )
}
