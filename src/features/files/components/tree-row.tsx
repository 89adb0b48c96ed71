import type { NodeRendererProps, RowRendererProps } from 'react-arborist'
import type { TreeNode } from '../api/tree-nodes'

const ICONS: Record<TreeNode['kind'], string> = {
  hub: 'M3 21h18M5 21V7l7-4 7 4v14M9 9h6M9 13h6M9 17h6',
  project: 'M3 7h18v13H3zM8 7V4h8v3',
  folder: 'M3 6h6l2 2h10v11H3z',
  item: 'M6 3h9l4 4v14H6zM15 3v4h4',
  version: 'M12 7v5l3 3M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z',
}

/** One row of the file tree. Module-level so its identity never changes (arborist rebuilds otherwise). */
export function TreeRow({ node, style }: NodeRendererProps<TreeNode>) {
  const data = node.data
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
    </div>
  )
}

/**
 * The row element (role treeitem). A click selects the row and opens or closes it;
 * the keyboard is handled by the tree. Module-level, so its identity never changes.
 */
export function TreeRowFrame({ node, attrs, innerRef, children }: RowRendererProps<TreeNode>) {
  return (
    // biome-ignore lint/a11y: attrs give the row role treeitem; the tree element handles its keys
    <div
      {...attrs}
      ref={innerRef}
      onFocus={(e) => e.stopPropagation()}
      onClick={(e) => {
        node.handleClick(e)
        if (node.isInternal) node.toggle()
      }}
    >
      {children}
    </div>
  )
}
