import { describe, expect, it } from 'vitest'
import type { JsonApiResource } from '../cloud/types.ts'
import { contextFor, createFakeCloud } from '../testing/jobs/fakes.ts'
import { walkDrawingVersions } from './folder-walk.ts'

const folder = (id: string): JsonApiResource => ({ type: 'folders', id, attributes: { name: id } })
const item = (id: string, name: string, modified = '2026-11-01T00:00:00Z'): JsonApiResource => ({
  type: 'items',
  id,
  attributes: { displayName: name, lastModifiedTime: modified },
})
const version = (item: string, name: string, n: number, created: string): JsonApiResource => ({
  type: 'versions',
  id: `${item}-v${n}`,
  attributes: { name, displayName: name, versionNumber: n, createTime: created },
  relationships: { storage: { data: { type: 'objects', id: `${item}-s${n}` } } },
})

/** A watched folder holding a drawing of three versions, a workbook and a subfolder's drawing. */
function cloudWithTree() {
  const fake = createFakeCloud()
  fake.lists.contents.set('top', [
    item('plan', 'plan.dwg', '2026-11-03T00:00:00Z'),
    item('bill', 'plan BOQ.xlsx'),
    folder('sub'),
  ])
  fake.lists.contents.set('sub', [item('detail', 'detail.dwg', '2026-10-01T00:00:00Z')])
  // As the clouds list them: the newest first.
  fake.lists.versions.set('plan', [
    version('plan', 'plan.dwg', 3, '2026-11-03T00:00:00Z'),
    version('plan', 'plan.dwg', 2, '2026-11-02T00:00:00Z'),
    version('plan', 'plan.dwg', 1, '2026-11-01T00:00:00Z'),
  ])
  fake.lists.versions.set('bill', [version('bill', 'plan BOQ.xlsx', 1, '2026-11-03T00:00:00Z')])
  fake.lists.versions.set('detail', [version('detail', 'detail.dwg', 1, '2026-10-01T00:00:00Z')])
  return fake
}

const top = { hubId: 'h1', projectId: 'p1', folderId: 'top' }

describe('walking a watched folder', () => {
  it('gives every drawing version below it, each drawing’s oldest first, and no workbook', async () => {
    const fake = cloudWithTree()
    const found = await walkDrawingVersions(fake.cloud, contextFor('ann'), top)
    expect(found.map((v) => v.fileStorageId)).toEqual([
      'plan-s1',
      'plan-s2',
      'plan-s3',
      'detail-s1',
    ])
    expect(found[3]).toMatchObject({ fileName: 'detail.dwg', fileFolderId: 'sub', projectId: 'p1' })
  })

  it('lists the versions only of items that changed, and of those created since a time', async () => {
    const fake = cloudWithTree()
    const since = Date.parse('2026-11-02T00:00:00Z')
    const found = await walkDrawingVersions(fake.cloud, contextFor('ann'), top, {
      createdSince: since,
    })
    expect(found.map((v) => v.fileStorageId)).toEqual(['plan-s2', 'plan-s3'])
    // The subfolder's drawing, modified before, had its versions not even listed.
    expect(fake.listCalls).not.toContain('versions detail')

    const unchanged = await walkDrawingVersions(fake.cloud, contextFor('ann'), top, {
      changed: (entry) => entry.id !== 'plan',
    })
    expect(unchanged.map((v) => v.fileStorageId)).toEqual(['detail-s1'])
  })
})
