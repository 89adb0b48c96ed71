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

/** What the query cache holds for a node's children: its list (once loaded), and whether it loads. */
export type CachedChildren = { nodes: readonly TreeNode[] | undefined; loading: boolean }

/**
 * The tree as it shows: `top`, and under every node that `cached` answers for (a node whose
 * children were asked for) its loaded list, built the same way. A node keeps what it has loaded
 * whatever happens to the list it sits in, since its children come from its own query. `loaded`
 * tells an empty node from one whose load failed or has not ended; `loading` is a load running
 * while the node shows no children. Nodes nothing was asked for are `top`'s own objects.
 */
export function buildTree(
  top: readonly TreeNode[],
  cached: (node: TreeNode) => CachedChildren | undefined,
  above: ReadonlySet<string> = new Set(),
): TreeNode[] {
  return top.map((node) => {
    const state = node.children === null ? undefined : cached(node)
    // A list that holds a node above it (a folder inside itself) is not followed again.
    if (!state || above.has(node.id)) return node
    const children = state.nodes ? buildTree(state.nodes, cached, new Set(above).add(node.id)) : []
    return {
      ...node,
      children,
      loaded: state.nodes !== undefined,
      loading: state.loading && children.length === 0,
    } as TreeNode
  })
}
