import { useLayoutEffect, useRef } from 'react'
import type { EditorRow } from '../utils/rule-rows'
import type { EditorAction } from '../utils/rules-editor-state'
import { HEADERS, RuleRow } from './rule-row'

/** Where the focus goes once rows have moved or gone (keyboard users stay in the table). */
type Refocus = { kind: 'moved'; id: number; by: -1 | 1 } | { kind: 'removed'; index: number }

/**
 * The editable table of rules, in order (the first matching group takes a piece). A moved row
 * keeps the focus on the button that moved it, so the keyboard can move it again; a removed
 * row's place keeps it too.
 */
export function RulesTable({
  rows,
  errors,
  dispatch,
}: {
  rows: EditorRow[]
  /** What is wrong, by row number (1-based). */
  errors: Record<number, string>
  dispatch(action: EditorAction): void
}) {
  const table = useRef<HTMLTableElement>(null)
  const refocus = useRef<Refocus | null>(null)
  useLayoutEffect(() => {
    const after = refocus.current
    if (!after) return
    refocus.current = null
    const button = (name: string) =>
      table.current?.querySelector<HTMLButtonElement>(`button[aria-label="${name}"]:not(:disabled)`)
    if (after.kind === 'removed') {
      // The row that took the removed one's place, else the one above it.
      const at = Math.min(after.index, rows.length - 1)
      button(`Remove row ${at + 1}`)?.focus()
      return
    }
    const at = rows.findIndex((row) => row.id === after.id)
    const [same, other] = after.by < 0 ? ['up', 'down'] : ['down', 'up']
    // At the top or the bottom the button that moved it is disabled: the other one takes the focus.
    ;(button(`Move row ${at + 1} ${same}`) ?? button(`Move row ${at + 1} ${other}`))?.focus()
  })
  if (rows.length === 0) {
    return <p className="text-sm text-slate-600">No rules yet: add a row or import a file.</p>
  }
  return (
    <div className="overflow-x-auto">
      <table ref={table} aria-label="Takeoff rules" className="border-collapse text-left">
        <thead>
          <tr className="text-xs text-slate-500">
            <th scope="col" className="px-1">
              #
            </th>
            {HEADERS.map((header) => (
              <th key={header} scope="col" className="px-1 font-medium">
                {header}
              </th>
            ))}
            <th scope="col" className="px-1 font-medium">
              <span className="sr-only">Order</span>
            </th>
            <th scope="col" className="px-1 font-medium">
              Problem
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <RuleRow
              key={row.id}
              row={row}
              number={index + 1}
              last={index === rows.length - 1}
              error={errors[index + 1]}
              onEdit={(cells) => dispatch({ type: 'edit', id: row.id, cells })}
              onMove={(by) => {
                refocus.current = { kind: 'moved', id: row.id, by }
                dispatch({ type: 'move', id: row.id, by })
              }}
              onRemove={() => {
                refocus.current = { kind: 'removed', index }
                dispatch({ type: 'remove', id: row.id })
              }}
            />
          ))}
        </tbody>
      </table>
    </div>
  )
}
