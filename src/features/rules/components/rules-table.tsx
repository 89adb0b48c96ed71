import { useLayoutEffect, useRef } from 'react'
import type { EditorRow } from '../utils/rule-rows'
import type { EditorAction } from '../utils/rules-editor-state'
import { HEADERS, RuleRow } from './rule-row'

/**
 * The editable table of rules, in order (the first matching group takes a piece). A moved row
 * keeps the focus on the button that moved it, so the keyboard can move it again.
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
  const refocus = useRef<{ id: number; by: -1 | 1 } | null>(null)
  useLayoutEffect(() => {
    const moved = refocus.current
    if (!moved) return
    refocus.current = null
    const at = rows.findIndex((row) => row.id === moved.id)
    const name = `Move row ${at + 1} ${moved.by < 0 ? 'up' : 'down'}`
    const button = table.current?.querySelector<HTMLButtonElement>(`button[aria-label="${name}"]`)
    // At the top or the bottom that button is disabled: the other one takes the focus.
    const other = table.current?.querySelector<HTMLButtonElement>(
      `button[aria-label="Move row ${at + 1} ${moved.by < 0 ? 'down' : 'up'}"]`,
    )
    ;(button && !button.disabled ? button : other)?.focus()
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
                refocus.current = { id: row.id, by }
                dispatch({ type: 'move', id: row.id, by })
              }}
              onRemove={() => dispatch({ type: 'remove', id: row.id })}
            />
          ))}
        </tbody>
      </table>
    </div>
  )
}
