// Fixture factories: JSON:API resources and jobs as the server answers them. Used by every test.
import type { CloudResource } from '../../contract/cloud'
import type { ChangeBill, ChangeLine } from '../../contract/compare'
import type { Job } from '../features/jobs/api/jobs-api'

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

/** A change bill from job `from` to job `to`, in m and m², with the given lines. */
export function changeBill(
  from: string,
  to: string,
  lines: Partial<ChangeLine>[],
  notes: string[] = [],
): ChangeBill {
  return {
    from: { jobId: from, fileName: 'plan.dwg', versionNumber: 1 },
    to: { jobId: to, fileName: 'plan.dwg', versionNumber: 2 },
    units: { length: 'm', area: 'm²' },
    notes,
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
