import type { TreeNode } from '../api/tree-nodes'

export function findNode(nodes: readonly TreeNode[], id: string): TreeNode | undefined {
  for (const node of nodes) {
    if (node.id === id) return node
    if (node.children) {
      const found = findNode(node.children, id)
      if (found) return found
    }
  }
  return undefined
}

/** The nodes from the top of the tree down to node `id` (itself last); undefined when not loaded. */
export function pathTo(nodes: readonly TreeNode[], id: string): TreeNode[] | undefined {
  for (const node of nodes) {
    if (node.id === id) return [node]
    if (node.children) {
      const below = pathTo(node.children, id)
      if (below) return [node, ...below]
    }
  }
  return undefined
}

/** The ids from the top of the tree down to node `id` (itself last); undefined when not loaded. */
export function ancestorIds(nodes: readonly TreeNode[], id: string): string[] | undefined {
  return pathTo(nodes, id)?.map((node) => node.id)
}

/** A copy of `nodes` with node `id` replaced by `change(node)`; untouched branches are shared. */
export function updateNode(
  nodes: TreeNode[],
  id: string,
  change: (node: TreeNode) => TreeNode,
): TreeNode[] {
  let changed = false
  const next = nodes.map((node) => {
    if (node.id === id) {
      changed = true
      return change(node)
    }
    if (node.children && node.children.length > 0) {
      const children = updateNode(node.children, id, change)
      if (children !== node.children) {
        changed = true
        return { ...node, children } as TreeNode
      }
    }
    return node
  })
  return changed ? next : nodes
}

/**
 * A node's fresh list of children merged with what the tree had: a node still there keeps its
 * loaded children and load state (what was open stays open and filled, an empty folder stays
 * known as empty), new ones come in, missing ones go; order and titles follow the fresh list.
 */
export function mergeChildren(before: readonly TreeNode[] | null, fresh: TreeNode[]): TreeNode[] {
  if (!before?.length) return fresh
  const old = new Map(before.map((node) => [node.id, node]))
  return fresh.map((node) => {
    const kept = old.get(node.id)
    if (!(kept?.children?.length || kept?.loading || kept?.loaded)) return node
    const { children, loading, loaded } = kept
    return { ...node, children, loading, loaded } as TreeNode
  })
}
