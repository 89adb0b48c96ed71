import { createContext, type DragEvent, type ReactNode, useContext, useState } from 'react'
import type { NodeRendererProps, RowRendererProps } from 'react-arborist'
import type { TreeNode, TreeRowData } from '../api/tree-nodes'

const ICONS: Record<Exclude<TreeRowData['kind'], 'hint'>, string> = {
  hub: 'M3 21h18M5 21V7l7-4 7 4v14M9 9h6M9 13h6M9 17h6',
  project: 'M3 7h18v13H3zM8 7V4h8v3',
  folder: 'M3 6h6l2 2h10v11H3z',
  item: 'M6 3h9l4 4v14H6zM15 3v4h4',
  version: 'M12 7v5l3 3M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z',
  bills: 'M4 4h16v16H4zM8 9h8M8 13h8M8 17h5',
  bill: 'M6 3h12v18l-3-2-3 2-3-2-3 2zM9 8h6M9 12h6',
}

/** Rows that take dropped files: a folder's, an item's (and its versions'), an empty folder's hint. */
const DROP_KINDS = new Set<TreeRowData['kind']>(['folder', 'item', 'version', 'hint'])

/** Where the rows hand dropped files; null (no drop targets) when uploads are not offered. */
export const RowDropContext = createContext<((row: TreeRowData, files: File[]) => void) | null>(
  null,
)

/**
 * What the page shows at the end of a row (a watched folder's mark); null: nothing. Through a
 * context, so that a new mark re-renders the rows without rebuilding the tree.
 */
export const RowMarkContext = createContext<((node: TreeNode) => ReactNode) | null>(null)

/** A drag that carries files (from the desktop), not text or a link. */
export function carriesFiles(e: DragEvent): boolean {
  return Array.from(e.dataTransfer?.types ?? []).includes('Files')
}

/** One row of the file tree. Module-level so its identity never changes (arborist rebuilds otherwise). */
export function TreeRow({ node, style }: NodeRendererProps<TreeRowData>) {
  const mark = useContext(RowMarkContext)
  const data = node.data
  if (data.kind === 'hint') {
    return (
      <div style={style} className="flex h-full items-center pr-3 text-xs text-slate-500 italic">
        <span className="truncate pl-5" title={data.name}>
          {data.name}
        </span>
      </div>
    )
  }
  return (
    <div
      style={style}
      className={`flex h-full cursor-pointer items-center gap-1.5 pr-3 text-sm ${
        node.isSelected ? 'bg-sky-100 text-sky-900' : 'hover:bg-slate-100'
      } ${node.isFocused ? 'outline outline-1 -outline-offset-1 outline-sky-500' : ''}`}
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 16 16"
        className={`h-4 w-4 shrink-0 fill-slate-500 transition-transform ${
          node.isInternal ? '' : 'invisible'
        } ${node.isOpen ? 'rotate-90' : ''}`}
      >
        <path d="M6 4l5 4-5 4z" />
      </svg>
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="h-4 w-4 shrink-0 fill-none stroke-slate-500"
        strokeWidth="1.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d={ICONS[data.kind]} />
      </svg>
      <span className="truncate">{data.name}</span>
      {data.loading ? (
        <span
          aria-hidden="true"
          className="ml-1 h-3 w-3 animate-spin rounded-full border-2 border-slate-300 border-t-sky-600"
        />
      ) : null}
      {mark?.(data)}
    </div>
  )
}

/**
 * The row element (role treeitem). A click selects the row and opens or closes it (a hint line
 * takes no clicks); the keyboard is handled by the tree. When uploads are offered, files dragged
 * from the desktop can be dropped onto folder, item and version rows (native drag events: the
 * tree's own dragging of nodes is off). Module-level, so its identity never changes.
 */
export function TreeRowFrame({ node, attrs, innerRef, children }: RowRendererProps<TreeRowData>) {
  const drop = useContext(RowDropContext)
  const [over, setOver] = useState(false)
  const takesFiles = drop !== null && DROP_KINDS.has(node.data.kind)
  const onDragOver = (e: DragEvent) => {
    if (!carriesFiles(e)) return
    e.preventDefault()
    e.dataTransfer.dropEffect = 'copy'
    setOver(true)
  }
  return (
    // biome-ignore lint/a11y: attrs give the row role treeitem; the tree element handles its keys
    <div
      {...attrs}
      ref={innerRef}
      data-drop-target={over ? 'true' : undefined}
      className={
        over
          ? 'bg-sky-50 outline-2 -outline-offset-2 outline-sky-600 outline-dashed'
          : attrs.className
      }
      onFocus={(e) => e.stopPropagation()}
      onClick={(e) => {
        if (node.data.kind === 'hint') return
        node.handleClick(e)
        if (node.isInternal) node.toggle()
      }}
      {...(takesFiles
        ? {
            onDragEnter: onDragOver,
            onDragOver,
            onDragLeave: (e: DragEvent) => {
              if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(false)
            },
            onDrop: (e: DragEvent) => {
              if (!carriesFiles(e)) return
              e.preventDefault()
              setOver(false)
              drop(node.data, [...e.dataTransfer.files])
            },
          }
        : {})}
    >
      {children}
    </div>
  )
}
