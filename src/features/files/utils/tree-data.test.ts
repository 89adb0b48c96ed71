import { describe, expect, it } from 'vitest'
import { folder, item, version } from '../../../testing/fixtures'
import { type TreeNode, toChildNodes } from '../api/tree-nodes'
import { ancestorIds, buildTree, type CachedChildren, findNode } from './tree-data'

const inFolder = { kind: 'folder', hubId: 'b.h', projectId: 'b.p', folderId: 'f' } as const
const nodes = (...resources: Parameters<typeof toChildNodes>[1]) =>
  toChildNodes(inFolder, resources)

describe('buildTree', () => {
  const a = item('a.dwg', 'i-a')
  const b = item('b.dwg', 'i-b')
  const sub = folder('Sub', 'f-sub')
  const versions = toChildNodes({ kind: 'item', hubId: 'b.h', projectId: 'b.p', itemId: 'i-a' }, [
    version({ displayName: 'a.dwg' }),
  ])
  const cache = (entries: Record<string, CachedChildren>) => (node: TreeNode) => entries[node.id]

  it('takes the list as it is when no node was asked for', () => {
    const list = nodes(a, b)
    const built = buildTree(list, () => undefined)
    expect(built).toEqual(list)
    expect(built.every((node, i) => node === list[i])).toBe(true)
  })

  it('puts each asked node own children under it, whatever list it sits in now', () => {
    const cached = cache({
      'item:i-a': { nodes: versions, loading: false },
      'folder:f-sub': { nodes: undefined, loading: true },
    })
    const before = buildTree(nodes(a, b, sub), cached)
    expect(findNode(before, 'item:i-a')).toMatchObject({ loaded: true, children: versions })

    // The list loads again: renamed, reordered, one new, none gone.
    const renamed = { ...b, attributes: { displayName: 'b2.dwg' } }
    const c = item('c.dwg', 'i-c')
    const after = buildTree(nodes(sub, renamed, c, a), cached)
    expect(after.map((n) => n.name)).toEqual(['Sub', 'b2.dwg', 'c.dwg', 'a.dwg'])
    expect(findNode(after, 'item:i-a')?.children).toEqual(versions)
    expect(findNode(after, 'folder:f-sub')).toMatchObject({ loading: true, children: [] })
    expect(findNode(after, 'folder:f-sub')?.loaded).toBe(false)
    expect(findNode(after, 'item:i-b')?.children).toEqual([])
    expect(findNode(after, 'item:i-c')).toMatchObject({ children: [] })
    expect(findNode(after, 'item:i-c')?.loading).toBeUndefined()
  })

  it('tells a folder known to be empty from one whose load failed', () => {
    const empty = folder('Empty', 'f-empty')
    const built = buildTree(
      nodes(empty, sub),
      cache({
        'folder:f-empty': { nodes: [], loading: false },
        'folder:f-sub': { nodes: undefined, loading: false },
      }),
    )
    expect(findNode(built, 'folder:f-empty')).toMatchObject({ loaded: true, children: [] })
    expect(findNode(built, 'folder:f-sub')).toMatchObject({ loaded: false, children: [] })
  })

  it('shows no loading for a node reloading with children', () => {
    const built = buildTree(nodes(a), cache({ 'item:i-a': { nodes: versions, loading: true } }))
    expect(findNode(built, 'item:i-a')).toMatchObject({ loading: false, children: versions })
  })

  it('drops what a removed node had loaded', () => {
    const built = buildTree(nodes(b), cache({ 'item:i-a': { nodes: versions, loading: false } }))
    expect(built.map((n) => n.id)).toEqual(['item:i-b'])
    expect(findNode(built, versions[0]?.id ?? '')).toBeUndefined()
  })

  it('does not follow a list that holds a node above it', () => {
    const [loop] = nodes(sub)
    const built = buildTree(nodes(sub), () => ({ nodes: loop ? [loop] : [], loading: false }))
    expect(ancestorIds(built, 'folder:f-sub')).toEqual(['folder:f-sub'])
    expect(built[0]?.children).toEqual([loop])
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
