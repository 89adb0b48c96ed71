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

/** The ids from the top of the tree down to node `id` (itself last); undefined when not loaded. */
export function ancestorIds(nodes: readonly TreeNode[], id: string): string[] | undefined {
  for (const node of nodes) {
    if (node.id === id) return [id]
    if (node.children) {
      const below = ancestorIds(node.children, id)
      if (below) return [node.id, ...below]
    }
  }
  return undefined
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
 * loaded children and load state (what was open stays open and filled), new ones come in,
 * missing ones go; order and titles follow the fresh list.
 */
export function mergeChildren(before: readonly TreeNode[] | null, fresh: TreeNode[]): TreeNode[] {
  if (!before?.length) return fresh
  const old = new Map(before.map((node) => [node.id, node]))
  return fresh.map((node) => {
    const kept = old.get(node.id)
    return kept?.children?.length || kept?.loading
      ? ({ ...node, children: kept.children, loading: kept.loading } as TreeNode)
      : node
  })
}
