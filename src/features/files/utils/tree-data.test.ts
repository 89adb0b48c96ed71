import { describe, expect, it } from 'vitest'
import { folder, item, version } from '../../../testing/fixtures'
import { type TreeNode, toChildNodes } from '../api/tree-nodes'
import { ancestorIds, findNode, mergeChildren } from './tree-data'

const inFolder = { kind: 'folder', hubId: 'b.h', projectId: 'b.p', folderId: 'f' } as const
const nodes = (...resources: Parameters<typeof toChildNodes>[1]) =>
  toChildNodes(inFolder, resources)

describe('mergeChildren', () => {
  const a = item('a.dwg', 'i-a')
  const b = item('b.dwg', 'i-b')
  const sub = folder('Sub', 'f-sub')
  const versions = toChildNodes({ kind: 'item', hubId: 'b.h', projectId: 'b.p', itemId: 'i-a' }, [
    version({ displayName: 'a.dwg' }),
  ])

  it('takes the fresh list as it is when nothing was loaded', () => {
    const fresh = nodes(a, b)
    expect(mergeChildren([], fresh)).toBe(fresh)
    expect(mergeChildren(null, fresh)).toBe(fresh)
  })

  it('keeps loaded children and load state of nodes still there; new come, missing go', () => {
    const [oldA, oldB, oldSub] = nodes(a, b, sub) as [TreeNode, TreeNode, TreeNode]
    const before = [
      { ...oldA, children: versions },
      oldB,
      { ...oldSub, loading: true },
    ] as TreeNode[]
    const renamed = { ...b, attributes: { displayName: 'b2.dwg' } }
    const c = item('c.dwg', 'i-c')
    const merged = mergeChildren(before, nodes(sub, renamed, c, a))
    expect(merged.map((n) => n.name)).toEqual(['Sub', 'b2.dwg', 'c.dwg', 'a.dwg'])
    expect(findNode(merged, 'item:i-a')?.children).toBe(versions)
    expect(findNode(merged, 'folder:f-sub')).toMatchObject({ loading: true, children: [] })
    expect(findNode(merged, 'item:i-b')?.children).toEqual([])
    expect(findNode(merged, 'item:i-c')).toMatchObject({ children: [] })
    expect(findNode(merged, 'item:i-c')?.loading).toBeUndefined()
  })

  it('keeps a folder known to be empty as such', () => {
    const [oldSub] = nodes(sub) as [TreeNode]
    const merged = mergeChildren([{ ...oldSub, loaded: true }], nodes(sub, a))
    expect(findNode(merged, 'folder:f-sub')).toMatchObject({ loaded: true, children: [] })
    expect(findNode(merged, 'item:i-a')?.loaded).toBeUndefined()
  })

  it('drops what a removed node had loaded', () => {
    const [oldA] = nodes(a) as [TreeNode]
    const merged = mergeChildren([{ ...oldA, children: versions } as TreeNode], nodes(b))
    expect(merged.map((n) => n.id)).toEqual(['item:i-b'])
    expect(findNode(merged, versions[0]?.id ?? '')).toBeUndefined()
  })
})

describe('ancestorIds', () => {
  it('gives the ids from the top down to a loaded node, or undefined', () => {
    const [sub, a] = nodes(folder('Sub', 'f-sub'), item('a.dwg', 'i-a')) as [TreeNode, TreeNode]
    const inSub = toChildNodes({ ...inFolder, folderId: 'f-sub' }, [item('deep.dwg', 'i-deep')])
    const tree = [{ ...sub, children: inSub } as TreeNode, a]
    expect(ancestorIds(tree, 'item:i-deep')).toEqual(['folder:f-sub', 'item:i-deep'])
    expect(ancestorIds(tree, 'item:i-a')).toEqual(['item:i-a'])
    expect(ancestorIds(tree, 'item:nowhere')).toBeUndefined()
  })
})
