import { useLayoutEffect, useRef } from 'react'
import {
  ADJUSTMENT_KINDS,
  type AdjustmentKind,
  MAX_ADJUSTMENTS,
  MAX_SETTING_TEXT,
} from '#contract/bill-settings.ts'
import { type AdjustmentRow, moved, newAdjustment } from '../utils/settings-form'
import { fieldId, type Problems, problemOf } from '../utils/settings-problems'
import { AddRowButton } from './add-row-button'
import { AdjustmentFigures } from './adjustment-figures'
import { FieldProblem, invalidProps } from './field-problem'

/** Each kind as the surveyor reads it. */
export const KIND_WORDS: Record<AdjustmentKind, string> = {
  percent: 'Percentage of the running total',
  sum: 'Fixed sum',
  item: 'Manual item',
  tax: 'Tax on the total',
}

/** Where the focus goes once a row has moved or gone (keyboard users stay in the table). */
type Refocus = { kind: 'moved'; id: number; by: -1 | 1 } | { kind: 'removed'; index: number }

/**
 * The adjustments below the measured items, in the order they apply: each row's kind, name and
 * figures, buttons to move it up or down and to remove it. A moved row keeps the focus on the
 * button that moved it, so the keyboard can move it again; a removed row's place keeps it too.
 */
export function AdjustmentsTable({
  rows,
  problems,
  onChange,
}: {
  rows: AdjustmentRow[]
  problems: Problems
  onChange(rows: AdjustmentRow[]): void
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
      const at = Math.min(after.index, rows.length - 1)
      const next = button(`Remove adjustment ${at + 1}`)
      if (next) next.focus()
      else document.getElementById(fieldId('adjustments'))?.focus()
      return
    }
    const at = rows.findIndex((row) => row.id === after.id)
    const [same, other] = after.by < 0 ? ['up', 'down'] : ['down', 'up']
    ;(
      button(`Move adjustment ${at + 1} ${same}`) ?? button(`Move adjustment ${at + 1} ${other}`)
    )?.focus()
  })
  const edit = (id: number, cells: Partial<AdjustmentRow>) =>
    onChange(rows.map((row) => (row.id === id ? { ...row, ...cells } : row)))
  const tableProblem = problemOf(problems, 'adjustments')
  return (
    <section aria-labelledby="bill-settings-adjustments-heading" className="flex flex-col gap-2">
      <h2 id="bill-settings-adjustments-heading" className="font-semibold text-slate-800">
        Adjustments
      </h2>
      <p className="max-w-prose text-sm text-slate-600">
        Below the measured items, in this order: a percentage is of the running total (the items and
        the adjustments above it), a manual item is its quantity × its rate, added or omitted; taxes
        come last, each of the total before tax.
      </p>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">No adjustments: the bill’s total is its items’.</p>
      ) : (
        <table
          ref={table}
          aria-label="Adjustments"
          className="self-start border-collapse text-left text-sm"
        >
          <thead>
            <tr className="text-xs text-slate-500">
              <th scope="col" className="px-1">
                #
              </th>
              <th scope="col" className="px-1 font-medium">
                Kind
              </th>
              <th scope="col" className="px-1 font-medium">
                Name or description
              </th>
              <th scope="col" className="px-1 font-medium">
                Figures
              </th>
              <th scope="col" className="px-1">
                <span className="sr-only">Order</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => {
              const number = index + 1
              const kindKey = `adjustment-${row.id}-kind`
              const kindProblem = problemOf(problems, kindKey)
              const nameKey = `adjustment-${row.id}-name`
              const nameProblem = problemOf(problems, nameKey)
              return (
                <tr
                  key={row.id}
                  aria-label={`Adjustment ${number}`}
                  className="border-t border-slate-200 align-top"
                >
                  <th scope="row" className="px-1 py-1 text-right font-normal text-slate-500">
                    {number}
                  </th>
                  <td className="px-1 py-1">
                    <select
                      id={fieldId(kindKey)}
                      aria-label={`Kind, adjustment ${number}`}
                      value={row.kind}
                      onChange={(event) =>
                        edit(row.id, { kind: event.target.value as AdjustmentKind })
                      }
                      className="rounded border border-slate-300 px-1 py-0.5 aria-[invalid=true]:border-red-600"
                      {...invalidProps(kindKey, kindProblem)}
                    >
                      {ADJUSTMENT_KINDS.map((kind) => (
                        <option key={kind} value={kind}>
                          {KIND_WORDS[kind]}
                        </option>
                      ))}
                    </select>
                    <FieldProblem field={kindKey} problem={kindProblem} />
                  </td>
                  <td className="px-1 py-1">
                    <input
                      id={fieldId(nameKey)}
                      type="text"
                      aria-label={`Name, adjustment ${number}`}
                      value={row.name}
                      placeholder={row.kind === 'tax' ? 'VAT' : 'Preliminaries'}
                      maxLength={MAX_SETTING_TEXT + 1}
                      onChange={(event) => edit(row.id, { name: event.target.value })}
                      className="w-64 rounded border border-slate-300 px-2 py-0.5 aria-[invalid=true]:border-red-600"
                      {...invalidProps(nameKey, nameProblem)}
                    />
                    <FieldProblem field={nameKey} problem={nameProblem} />
                  </td>
                  <td className="px-1 py-1">
                    <AdjustmentFigures
                      row={row}
                      number={number}
                      problems={problems}
                      onEdit={(cells) => edit(row.id, cells)}
                    />
                  </td>
                  <td className="px-1 py-1 whitespace-nowrap">
                    <RowButton
                      label={`Move adjustment ${number} up`}
                      disabled={number === 1}
                      onClick={() => {
                        refocus.current = { kind: 'moved', id: row.id, by: -1 }
                        onChange(moved(rows, row.id, -1))
                      }}
                    >
                      ↑
                    </RowButton>
                    <RowButton
                      label={`Move adjustment ${number} down`}
                      disabled={number === rows.length}
                      onClick={() => {
                        refocus.current = { kind: 'moved', id: row.id, by: 1 }
                        onChange(moved(rows, row.id, 1))
                      }}
                    >
                      ↓
                    </RowButton>
                    <RowButton
                      label={`Remove adjustment ${number}`}
                      onClick={() => {
                        refocus.current = { kind: 'removed', index }
                        onChange(rows.filter((one) => one.id !== row.id))
                      }}
                    >
                      ×
                    </RowButton>
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}
      <FieldProblem field="adjustments" problem={tableProblem} />
      <AddRowButton
        field="adjustments"
        problem={tableProblem}
        rows={rows}
        max={MAX_ADJUSTMENTS}
        make={() => newAdjustment()}
        firstField={(row) => `adjustment-${row.id}-name`}
        onChange={onChange}
      >
        Add an adjustment
      </AddRowButton>
    </section>
  )
}

function RowButton({
  label,
  disabled,
  onClick,
  children,
}: {
  label: string
  disabled?: boolean
  onClick(): void
  children: string
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onClick}
      className="mr-1 rounded border border-slate-300 px-2 hover:bg-slate-100 disabled:opacity-40"
    >
      {children}
    </button>
  )
}
