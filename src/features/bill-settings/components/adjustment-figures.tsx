import { MAX_UNIT_LENGTH } from '#contract/bill-settings.ts'
import type { AdjustmentRow } from '../utils/settings-form'
import { fieldId, type Problems, problemOf } from '../utils/settings-problems'
import { FieldProblem, invalidProps } from './field-problem'

type FigureField = 'percent' | 'amount' | 'quantity' | 'unit' | 'rate'

/** The figures each kind of adjustment has, with their labels. */
const FIGURES: Record<AdjustmentRow['kind'], { field: FigureField; label: string }[]> = {
  percent: [{ field: 'percent', label: 'Percent' }],
  sum: [{ field: 'amount', label: 'Amount' }],
  item: [
    { field: 'quantity', label: 'Quantity' },
    { field: 'unit', label: 'Unit' },
    { field: 'rate', label: 'Rate' },
  ],
  tax: [{ field: 'percent', label: 'Percent' }],
}

/** An adjustment's own figures, by its kind: a percentage, an amount, or an item's. */
export function AdjustmentFigures({
  row,
  number,
  problems,
  onEdit,
}: {
  row: AdjustmentRow
  number: number
  problems: Problems
  onEdit(cells: Partial<AdjustmentRow>): void
}) {
  return (
    <div className="flex flex-wrap items-start gap-2">
      {FIGURES[row.kind].map(({ field, label }) => {
        const key = `adjustment-${row.id}-${field}`
        const problem = problemOf(problems, key)
        const isUnit = field === 'unit'
        return (
          <label key={field} className="flex flex-col text-xs text-slate-500">
            {label}
            <input
              id={fieldId(key)}
              type={isUnit ? 'text' : 'number'}
              step="any"
              aria-label={`${label}, adjustment ${number}`}
              value={row[field]}
              maxLength={isUnit ? MAX_UNIT_LENGTH + 1 : undefined}
              onChange={(event) => onEdit({ [field]: event.target.value })}
              className={`rounded border border-slate-300 px-2 py-0.5 text-sm text-slate-900 aria-[invalid=true]:border-red-600 ${isUnit ? 'w-16' : 'w-28 text-right'}`}
              {...invalidProps(key, problem)}
            />
            <FieldProblem field={key} problem={problem} />
          </label>
        )
      })}
      {row.kind === 'item' ? (
        <label className="flex flex-col text-xs text-slate-500">
          Add or omit
          <select
            id={fieldId(`adjustment-${row.id}-omit`)}
            aria-label={`Add or omit, adjustment ${number}`}
            value={row.omit ? 'omit' : 'add'}
            onChange={(event) => onEdit({ omit: event.target.value === 'omit' })}
            className="rounded border border-slate-300 px-1 py-0.5 text-sm text-slate-900"
          >
            <option value="add">Add</option>
            <option value="omit">Omit</option>
          </select>
        </label>
      ) : null}
    </div>
  )
}
