import type { QueryClient } from '@tanstack/react-query'
import type { TreeParent } from '../api/tree-nodes'

/** What the file tree shows, kept while the user is on another page of the app. */
export type TreeMemory = {
  /** Nodes whose children were asked for, by node id, with what they load from. */
  asked: ReadonlyMap<string, TreeParent>
  /** Open and closed nodes by id, as react-arborist keeps them. */
  open: Readonly<Record<string, boolean>>
  /** The selected node's id. */
  selected: string | null
  /** How far the rows were scrolled, in pixels. */
  scrollOffset: number
}

// One per app, beside its query client: it lasts as long as the app does (a reload starts
// afresh, as its cache does), and never outlives the lists it refers to by much.
const memories = new WeakMap<QueryClient, TreeMemory>()

/** The tree's memory in this app, empty at first; the tree writes into it as it changes. */
export function treeMemory(queryClient: QueryClient): TreeMemory {
  let memory = memories.get(queryClient)
  if (!memory) {
    memory = { asked: new Map(), open: {}, selected: null, scrollOffset: 0 }
    memories.set(queryClient, memory)
  }
  return memory
}
