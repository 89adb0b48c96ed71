// Stands in for react-dnd in the build (vite.config.ts resolve.alias): the file tree
// never drags or drops, and react-arborist would otherwise ship react-dnd, dnd-core
// and the HTML5 back end (about 15 kB gzip) for nothing.
import type { ReactNode } from 'react'

const noConnector = (node: unknown) => node

// A monitor that never sees a drag.
const idleMonitor = {
  getClientOffset: () => null,
  getSourceClientOffset: () => null,
  getItem: () => null,
  isDragging: () => false,
  isOver: () => false,
  canDrop: () => false,
}

export function DndProvider({ children }: { children?: ReactNode }) {
  return children
}

export function useDrag(): [Record<string, never>, typeof noConnector, typeof noConnector] {
  return [{}, noConnector, noConnector]
}

export function useDrop(): [Record<string, never>, typeof noConnector] {
  return [{}, noConnector]
}

export function useDragLayer<T>(collect: (monitor: typeof idleMonitor) => T): T {
  return collect(idleMonitor)
}

export function useDragDropManager(): undefined {
  return undefined
}
