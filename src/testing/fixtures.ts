// Fixture factories: JSON:API resources and jobs as the server answers them. Used by every test.
import type { CloudResource } from '#contract/cloud.ts'
import type { ChangeBill, ChangeLine } from '#contract/compare.ts'
import type {
  ClassificationEntry,
  NotClassified,
  PricedBill,
  PricedItem,
  TakeoffRule,
} from '#contract/takeoff-rules.ts'
import type { Job } from '../features/jobs/api/jobs-api'
import type { Watch } from '../features/watches/api/watches-api'

let seq = 0
const next = (prefix: string) => `${prefix}${++seq}`

export function hub(name: string, id = `b.${next('hub')}`): CloudResource {
  return {
    id,
    type: 'hubs',
    attributes: { name },
    links: { self: { href: `https://cloud.test/hubs/${id}` } },
  }
}

export function project(name: string, id = `b.${next('project')}`): CloudResource {
  return {
    id,
    type: 'projects',
    attributes: { name },
    links: { self: { href: `https://cloud.test/projects/${id}` } },
  }
}

export function folder(
  name: string,
  id = `urn:adsk.wipprod:fs.folder:co.${next('f')}`,
): CloudResource {
  return {
    id,
    type: 'folders',
    attributes: { name, displayName: `${name} (display)` },
    links: { self: { href: `https://cloud.test/folders/${encodeURIComponent(id)}` } },
  }
}

export function item(
  displayName: string,
  id = `urn:adsk.wipprod:dm.lineage:${next('i')}`,
): CloudResource {
  return {
    id,
    type: 'items',
    attributes: { displayName, name: `${displayName} (name)` },
    links: { self: { href: `https://cloud.test/items/${encodeURIComponent(id)}` } },
  }
}

/** ACC's webView link: the folder is the `folderUrn` query value. */
export function accWebView(projectId: string, folderId: string, itemId = 'urn:x'): string {
  return `https://acc.autodesk.com/docs/files/projects/${projectId.replace(/^b\./, '')}?folderUrn=${encodeURIComponent(folderId)}&entityId=${encodeURIComponent(itemId)}&viewModel=detail&moduleId=folders`
}

/** BIM 360's webView link: the folder is the `folders/{id}/detail` path part. */
export function bim360WebView(projectId: string, folderId: string, itemId = 'urn:x'): string {
  return `https://docs.b360.autodesk.com/projects/${projectId.replace(/^b\./, '')}/folders/${encodeURIComponent(folderId)}/detail/viewer/items/${encodeURIComponent(itemId)}`
}

export function version(options: {
  displayName: string
  versionNumber?: number
  createTime?: string
  user?: string
  storageId?: string
  webView?: string
  id?: string
  /** Autodesk's processing state (`NEEDS_PROCESSING` while the file is not whole yet). */
  processState?: string
}): CloudResource {
  const versionNumber = options.versionNumber ?? 1
  const id = options.id ?? `urn:adsk.wipprod:fs.file:vf.${next('v')}?version=${versionNumber}`
  return {
    id,
    type: 'versions',
    attributes: {
      name: options.displayName,
      displayName: options.displayName,
      versionNumber,
      createTime: options.createTime ?? '2024-03-04T05:06:07.000Z',
      lastModifiedUserName: options.user ?? 'Ada Lovelace',
      ...(options.processState
        ? { extension: { data: { processState: options.processState } } }
        : {}),
    },
    links: {
      self: { href: `https://cloud.test/versions/${encodeURIComponent(id)}` },
      webView: { href: options.webView ?? '' },
    },
    relationships: {
      storage: {
        data: {
          type: 'objects',
          id: options.storageId ?? `urn:adsk.objects:os.object:wip.dm.prod/${next('obj')}.dwg`,
        },
      },
    },
  }
}

export function job(overrides: Partial<Job> = {}): Job {
  const id = overrides.id ?? next('job-')
  return {
    id,
    status: 'queued',
    fileName: 'floor.dwg',
    projectId: 'b.tower',
    fileFolderId: 'urn:adsk.wipprod:fs.folder:co.plans',
    fileStorageId: 'urn:adsk.objects:os.object:wip.dm.prod/floor.dwg',
    fileVersionNumber: null,
    folder: { name: null, hubId: null, path: null },
    units: null,
    createdAt: '2024-03-04T05:06:07.000Z',
    updatedAt: '2024-03-04T05:06:07.000Z',
    ...overrides,
  }
}

export function succeededJob(overrides: Partial<Job> = {}): Job {
  const base = job(overrides)
  return {
    ...base,
    status: 'succeeded',
    result: {
      fileName: `${base.fileName.replace(/\.dwg$/, '')} BOQ.xlsx`,
      itemId: 'urn:adsk.wipprod:dm.lineage:boq',
      versionNumber: 1,
      warnings: [],
      warningCount: 0,
      xlsxUrl: `/api/boq/jobs/${base.id}/result.xlsx`,
      csvUrl: `/api/boq/jobs/${base.id}/result.csv`,
      jsonUrl: `/api/boq/jobs/${base.id}/result.json`,
      geometryUrl: `/api/boq/jobs/${base.id}/geometry`,
      comparedWith: null,
    },
    ...overrides,
  }
}

/**
 * A succeeded job that read version `read` of `fileName` and wrote version `written` of its BOQ
 * as item `itemId` into its folder (`folder`: what the server knew of it), with `warnings`.
 */
export function writtenJob(options: {
  id?: string
  fileName?: string
  projectId?: string
  fileFolderId?: string
  read?: number | null
  folder?: Partial<Job['folder']>
  itemId?: string
  written?: number
  warnings?: string[]
  warningCount?: number
}): Job {
  const base = succeededJob({
    ...(options.id ? { id: options.id } : {}),
    fileName: options.fileName ?? 'floor.dwg',
    ...(options.projectId ? { projectId: options.projectId } : {}),
    ...(options.fileFolderId ? { fileFolderId: options.fileFolderId } : {}),
    fileVersionNumber: options.read ?? null,
    folder: { name: null, hubId: null, path: null, ...options.folder },
  })
  const warnings = options.warnings ?? []
  return {
    ...base,
    result: {
      ...(base.result as NonNullable<Job['result']>),
      itemId: options.itemId ?? 'urn:adsk.wipprod:dm.lineage:boq',
      versionNumber: options.written ?? 1,
      warnings,
      warningCount: options.warningCount ?? warnings.length,
    },
  }
}

/** Where a paused watch sends the person to allow BOQ to act for them (the server's path). */
export const WATCH_CONSENT_URL = '/api/aps/auth/login?for=watches'

/** A watch of the Plans folder, active with nothing waiting, unless told otherwise. */
export function watch(overrides: Partial<Watch> = {}): Watch {
  return {
    id: overrides.id ?? next('watch-'),
    projectId: 'b.tower',
    fileFolderId: 'urn:adsk.wipprod:fs.folder:co.plans',
    folder: { name: 'Plans', hubId: 'b.demo-hub', path: null },
    units: null,
    createdAt: '2024-03-04T05:06:07.000Z',
    state: 'active',
    pausedReason: null,
    waiting: 0,
    consentUrl: null,
    ...overrides,
  }
}

/** A change bill from job `from` to job `to`, in m and m², with the given lines (and entities). */
export function changeBill(
  from: string,
  to: string,
  lines: Partial<ChangeLine>[],
  notes: string[] = [],
  entities: ChangeBill['entities'] = { added: [], removed: [] },
): ChangeBill {
  return {
    from: { jobId: from, fileName: 'plan.dwg', versionNumber: 1 },
    to: { jobId: to, fileName: 'plan.dwg', versionNumber: 2 },
    units: { length: 'm', area: 'm²' },
    notes,
    entities,
    lines: lines.map((line, i) => {
      const before = line.before ?? 0
      const after = line.after ?? 0
      return {
        ref: `A${i + 1}`,
        kind: 'count',
        description: `Item ${i + 1}`,
        unit: 'nr',
        before,
        after,
        change: after - before,
        changePercent: before === 0 ? null : ((after - before) / before) * 100,
        state:
          before === after
            ? 'unchanged'
            : before === 0
              ? 'added'
              : after === 0
                ? 'removed'
                : 'changed',
        ...line,
      }
    }),
  }
}

/** A takeoff rule: a count of any block, unless told otherwise. */
export function takeoffRule(overrides: Partial<TakeoffRule> = {}): TakeoffRule {
  return { match: 'count', ...overrides }
}

/** A code of a classification system, at the top level unless told otherwise. */
export function classificationEntry(
  overrides: Partial<ClassificationEntry> = {},
): ClassificationEntry {
  return { code: 'E', title: 'Electrical', ...overrides }
}

/** A priced bill with nothing in it unless told otherwise. */
export function pricedBill(overrides: Partial<PricedBill> = {}): PricedBill {
  return {
    currency: null,
    header: {},
    sections: [],
    items: [],
    // The items' total is the total unless told otherwise: no adjustments.
    itemsTotal: overrides.total ?? 0,
    adjustments: [],
    total: 0,
    notClassified: [],
    ignored: [],
    rules: [],
    warnings: [],
    ...overrides,
  }
}

/** A not-classified line: linework on Tavolo 2 unless told otherwise. */
export function notClassifiedLine(overrides: Partial<NotClassified> = {}): NotClassified {
  return {
    line: 'B1',
    match: 'length',
    description: 'Lines on layer Tavolo 2',
    layer: 'Tavolo 2',
    kind: 'line',
    unit: 'm',
    quantity: 1,
    count: 1,
    handles: [],
    ...overrides,
  }
}

/** The measured lines the toy pricing works on: those of `exampleBoq()`, one piece each. */
export const PRICED_LINES: NotClassified[] = [
  { line: 'A1', match: 'count', description: 'bloko', block: 'bloko', layer: 'Tavolo 3' },
  {
    line: 'A2',
    match: 'count',
    description: 'CIRKLO_PUNKTOJ',
    block: 'CIRKLO_PUNKTOJ',
    layer: 'Tavolo 3',
  },
  {
    line: 'B1',
    match: 'length',
    description: 'Linework on layer Tavolo 2',
    layer: 'Tavolo 2',
    kind: 'arc,polyline',
  },
  { line: 'C1', match: 'area', description: 'Area on layer Tavolo 2', layer: 'Tavolo 2' },
].map((line, i) => ({
  ...(line as Omit<NotClassified, 'unit' | 'quantity' | 'count' | 'handles'>),
  unit: ['nr', 'nr', 'm', 'm²'][i] as string,
  quantity: [2, 8, 12.5, 4][i] as number,
  count: 1,
  handles: [],
}))

const globMatches = (glob: string | undefined, value: string | undefined) =>
  !glob ||
  new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
    'i',
  ).test(value ?? '')

const sameFilters = (a: TakeoffRule, b: TakeoffRule) =>
  a.match === b.match && a.block === b.block && a.layer === b.layer && a.kind === b.kind

/**
 * A toy of the server's pricing, enough for screens: each of PRICED_LINES goes to the first
 * group of rows whose match, block and layer fit it; each row of the group gives an item of the
 * line's quantity at the row's rate (quantity formulas are not read), described by the row, else
 * by its code's title in the classification, else by the line. Sections by the code's first
 * segment.
 */
export function fakePricing(
  rules: TakeoffRule[],
  classification: ClassificationEntry[] = [],
): PricedBill {
  const titleOf = (code: string) => classification.find((entry) => entry.code === code)?.title
  const items: PricedItem[] = []
  const notClassified: NotClassified[] = []
  const ignored: PricedBill['ignored'] = []
  for (const line of PRICED_LINES) {
    const first = rules.findIndex(
      (rule) =>
        rule.match === line.match &&
        globMatches(rule.block, line.block) &&
        globMatches(rule.layer, line.layer),
    )
    if (first < 0) {
      notClassified.push(line)
      continue
    }
    for (
      let i = first;
      i < rules.length && sameFilters(rules[i] as TakeoffRule, rules[first] as TakeoffRule);
      i++
    ) {
      const rule = rules[i] as TakeoffRule
      if (rule.ignore) {
        ignored.push({ rule: i + 1, ...line })
        continue
      }
      const code = rule.code ?? ''
      const description = rule.description ?? titleOf(code) ?? line.description
      const unit = rule.unit ?? line.unit
      const rate = rule.rate ?? null
      const source = {
        line: line.line,
        measured: line.quantity,
        count: 1,
        quantity: line.quantity,
        handles: [],
      }
      const same = items.find(
        (item) =>
          item.code === code &&
          item.description === description &&
          item.unit === unit &&
          item.rate === rate,
      )
      if (same) {
        same.quantity += line.quantity
        same.measuredQuantity += line.quantity
        same.amount = rate === null ? null : same.quantity * rate
        same.rules.push(i + 1)
        same.sources.push(source)
        continue
      }
      items.push({
        ref: `${items.length + 1}`,
        section: code.split(/[.\s]/)[0] ?? '',
        code,
        description,
        unit,
        quantity: line.quantity,
        measuredQuantity: line.quantity,
        decimals: unit === 'nr' ? 0 : 2,
        rate,
        amount: rate === null ? null : line.quantity * rate,
        rules: [i + 1],
        sources: [source],
        flags: [],
      })
    }
  }
  const sections = [...new Set(items.map((item) => item.section))].map((code) => {
    const own = items.filter((item) => item.section === code)
    return {
      code,
      title: code ? `Section ${code}` : 'No code',
      items: own.map((item) => item.ref),
      subtotal: own.reduce((sum, item) => sum + (item.amount ?? 0), 0),
    }
  })
  const total = items.reduce((sum, item) => sum + (item.amount ?? 0), 0)
  return pricedBill({ sections, items, total, notClassified, ignored, rules })
}

/**
 * A succeeded `job` whose bill was compared with the earlier bill of job `earlier.jobId` (null:
 * a bill kept without its job), of version `earlier.versionNumber`, `changedLines` of its lines
 * differing (null: not counted).
 */
export function comparedJob(
  job: Job,
  earlier: { jobId: string | null; versionNumber: number | null },
  changedLines: number | null = null,
): Job {
  const result = job.result ?? (succeededJob({ id: job.id }).result as NonNullable<Job['result']>)
  return {
    ...job,
    status: 'succeeded',
    result: {
      ...result,
      comparedWith: { fileName: job.fileName, ...earlier },
      changedLines,
    },
  }
}
