import { describe, expect, it } from 'vitest'
import { folder, hub, item, project, version } from '../../../testing/fixtures'
import { type TreeNode, toChildNodes } from '../api/tree-nodes'
import {
  asksFirst,
  nextVersionNumber,
  refusedLine,
  uploadedLine,
  uploadNote,
  uploadTargetOf,
  versionQuestion,
} from './upload-target'

/** Hub → project → Plans (Sub, floor.dwg with one version), all loaded. */
function loadedTree(): TreeNode[] {
  const [h] = toChildNodes({ kind: 'root' }, [hub('Hub', 'b.h')])
  const [p] = toChildNodes({ kind: 'hub', hubId: 'b.h' }, [project('Tower', 'b.p')])
  const top = { kind: 'project', hubId: 'b.h', projectId: 'b.p' } as const
  const [plans] = toChildNodes(top, [folder('Plans', 'f-plans')])
  const inPlans = { kind: 'folder', hubId: 'b.h', projectId: 'b.p', folderId: 'f-plans' } as const
  const [sub, floor] = toChildNodes(inPlans, [folder('Sub', 'f-sub'), item('floor.dwg', 'i-floor')])
  const versions = toChildNodes(
    { kind: 'item', hubId: 'b.h', projectId: 'b.p', itemId: 'i-floor' },
    [version({ displayName: 'floor.dwg', id: 'v-1' })],
  )
  const withChildren = (node: TreeNode | undefined, children: TreeNode[]) =>
    ({ ...node, children }) as TreeNode
  return [
    withChildren(h, [
      withChildren(p, [withChildren(plans, [sub as TreeNode, withChildren(floor, versions)])]),
    ]),
  ]
}

describe('uploadTargetOf', () => {
  const nodes = loadedTree()
  const plans = { hubId: 'b.h', projectId: 'b.p', folderId: 'f-plans', folderName: 'Plans' }

  it('puts drawings into a folder', () => {
    expect(uploadTargetOf(nodes, 'folder:f-plans')).toEqual(plans)
    expect(uploadTargetOf(nodes, 'folder:f-sub')).toEqual({
      ...plans,
      folderId: 'f-sub',
      folderName: 'Sub',
    })
  })

  it('makes the next version of an item, or of the item a version belongs to, in its folder', () => {
    const next = { ...plans, itemId: 'i-floor', itemName: 'floor.dwg' }
    expect(uploadTargetOf(nodes, 'item:i-floor')).toEqual(next)
    expect(uploadTargetOf(nodes, 'version:v-1')).toEqual(next)
  })

  it('has nowhere to put drawings on a hub, a project or a node not loaded', () => {
    expect(uploadTargetOf(nodes, 'hub:b.h')).toBeNull()
    expect(uploadTargetOf(nodes, 'project:b.p')).toBeNull()
    expect(uploadTargetOf(nodes, 'folder:elsewhere')).toBeNull()
  })
})

describe('uploadNote', () => {
  const nodes = loadedTree()
  const note = (id: string | null) => {
    const [node] = id === null ? [] : toArray(nodes, id)
    return uploadNote(node ?? null, id === null ? null : uploadTargetOf(nodes, id))
  }
  const toArray = (all: TreeNode[], id: string): TreeNode[] =>
    all.flatMap((n) => (n.id === id ? [n] : toArray(n.children ?? [], id)))

  it('says where an upload goes, or why there is nowhere', () => {
    expect(note('folder:f-plans')).toBe('Uploads into Plans.')
    expect(note('item:i-floor')).toBe('Uploads the next version of floor.dwg.')
    expect(note('version:v-1')).toBe('Uploads the next version of floor.dwg.')
    expect(note(null)).toBe(
      'Select a folder to upload drawings into (or a drawing, for its next version).',
    )
    expect(note('hub:b.h')).toBe(
      'Select a folder to upload into: a hub holds folders, not drawings.',
    )
    expect(note('project:b.p')).toBe(
      'Select a folder to upload into: a project holds folders, not drawings.',
    )
  })
})

describe('the question before an upload under another name', () => {
  const into = { hubId: 'b.h', projectId: 'b.p', folderId: 'f-plans', folderName: 'Plans' }
  const onto = { ...into, itemId: 'i-plan', itemName: 'plan.dwg' }
  const versions = (...numbers: number[]) =>
    toChildNodes(
      { kind: 'item', hubId: 'b.h', projectId: 'b.p', itemId: 'i-plan' },
      numbers.map((versionNumber) => version({ displayName: 'plan.dwg', versionNumber })),
    )

  it('is asked only when a file would become a version of an item of another name', () => {
    expect(asksFirst(onto, 'plan-B.dwg')).toBe(true)
    // Names are compared as they are: another case is another name.
    expect(asksFirst(onto, 'Plan.dwg')).toBe(true)
    expect(asksFirst(onto, 'plan.dwg')).toBe(false)
    expect(asksFirst(into, 'plan-B.dwg')).toBe(false)
  })

  it('names the version the file would be: one past the highest the item has', () => {
    expect(nextVersionNumber(versions(2, 1))).toBe(3)
    expect(nextVersionNumber(versions(1, 7))).toBe(8)
    expect(nextVersionNumber(versions())).toBeUndefined()
    expect(nextVersionNumber(null)).toBeUndefined()
    expect(versionQuestion('plan-B.dwg', onto, 3)).toBe(
      'Upload plan-B.dwg as version 3 of plan.dwg?',
    )
    expect(versionQuestion('plan-B.dwg', onto, undefined)).toBe(
      'Upload plan-B.dwg as the next version of plan.dwg?',
    )
  })
})

describe('the lines of an upload', () => {
  it('says which version was written', () => {
    expect(uploadedLine({ itemId: 'i', versionNumber: 2, fileName: 'plan.dwg' })).toBe(
      'Uploaded plan.dwg as version 2.',
    )
  })

  it('gives the server reason as it is, naming the file when the reason does not', () => {
    const refused = (status: number, body: string) =>
      Object.assign(new Error('refused'), {
        name: 'HTTPError',
        response: new Response(body, { status }),
        data: body,
      })
    const named = '"x.dwg" was not uploaded: not a DWG file (it looks like a PDF document).'
    expect(refusedLine('x.dwg', refused(422, named))).toBe(named)
    expect(refusedLine('x.dwg', refused(413, 'The upload is too large.'))).toBe(
      'x.dwg: The upload is too large.',
    )
    expect(refusedLine('x.dwg', new TypeError('Failed to fetch'))).toBe('x.dwg: Failed to fetch')
  })
})
