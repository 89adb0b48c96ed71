import { MAX_UNIT_DECIMALS, MAX_UNIT_LENGTH, MAX_UNITS } from '#contract/bill-settings.ts'
import { type DecimalsRow, newDecimals } from '../utils/settings-form'
import { fieldId, type Problems, problemOf } from '../utils/settings-problems'
import { AddRowButton } from './add-row-button'
import { FieldProblem, invalidProps } from './field-problem'

/**
 * The decimals each unit's quantities are billed to, a row per unit named; units not named are
 * billed to the defaults (whole numbers for `nr`, two decimals for the rest).
 */
export function DecimalsTable({
  rows,
  problems,
  onChange,
}: {
  rows: DecimalsRow[]
  problems: Problems
  onChange(rows: DecimalsRow[]): void
}) {
  const edit = (id: number, cells: Partial<DecimalsRow>) =>
    onChange(rows.map((row) => (row.id === id ? { ...row, ...cells } : row)))
  const tableProblem = problemOf(problems, 'decimals')
  return (
    <section aria-labelledby="bill-settings-decimals-heading" className="flex flex-col gap-2">
      <h2 id="bill-settings-decimals-heading" className="font-semibold text-slate-800">
        Decimals per unit
      </h2>
      <p className="max-w-prose text-sm text-slate-600">
        Each item’s quantity is billed rounded to its unit’s decimals, and its amount is that
        quantity × the rate. Units not listed: whole numbers for nr, 2 decimals for the others.
      </p>
      {rows.length === 0 ? null : (
        <table
          aria-label="Decimals per unit"
          className="self-start border-collapse text-left text-sm"
        >
          <thead>
            <tr className="text-xs text-slate-500">
              <th scope="col" className="px-1 font-medium">
                Unit
              </th>
              <th scope="col" className="px-1 font-medium">
                Decimals
              </th>
              <th scope="col" className="px-1">
                <span className="sr-only">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => {
              const number = index + 1
              const unitKey = `decimals-${row.id}-unit`
              const unitProblem = problemOf(problems, unitKey)
              const decimalsKey = `decimals-${row.id}-decimals`
              const decimalsProblem = problemOf(problems, decimalsKey)
              return (
                <tr key={row.id} className="align-top">
                  <td className="px-1 py-1">
                    <input
                      id={fieldId(unitKey)}
                      type="text"
                      aria-label={`Unit, row ${number}`}
                      value={row.unit}
                      maxLength={MAX_UNIT_LENGTH + 1}
                      onChange={(event) => edit(row.id, { unit: event.target.value })}
                      className="w-24 rounded border border-slate-300 px-2 py-0.5 aria-[invalid=true]:border-red-600"
                      {...invalidProps(unitKey, unitProblem)}
                    />
                    <FieldProblem field={unitKey} problem={unitProblem} />
                  </td>
                  <td className="px-1 py-1">
                    <input
                      id={fieldId(decimalsKey)}
                      type="number"
                      aria-label={`Decimals, row ${number}`}
                      min={0}
                      max={MAX_UNIT_DECIMALS}
                      step={1}
                      value={row.decimals}
                      onChange={(event) => edit(row.id, { decimals: event.target.value })}
                      className="w-20 rounded border border-slate-300 px-2 py-0.5 text-right aria-[invalid=true]:border-red-600"
                      {...invalidProps(decimalsKey, decimalsProblem)}
                    />
                    <FieldProblem field={decimalsKey} problem={decimalsProblem} />
                  </td>
                  <td className="px-1 py-1">
                    <button
                      type="button"
                      aria-label={`Remove unit row ${number}`}
                      onClick={() => onChange(rows.filter((one) => one.id !== row.id))}
                      className="rounded border border-slate-300 px-2 hover:bg-slate-100"
                    >
                      ×
                    </button>
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}
      <FieldProblem field="decimals" problem={tableProblem} />
      <AddRowButton
        field="decimals"
        problem={tableProblem}
        rows={rows}
        max={MAX_UNITS}
        make={() => newDecimals()}
        firstField={(row) => `decimals-${row.id}-unit`}
        onChange={onChange}
      >
        Add a unit
      </AddRowButton>
    </section>
  )
}
