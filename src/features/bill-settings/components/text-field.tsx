import { MAX_SETTING_TEXT } from '#contract/bill-settings.ts'
import { type FieldKey, fieldId } from '../utils/settings-problems'
import { FieldProblem, invalidProps } from './field-problem'

/** One of the bill header's texts: its label, its input, and what is wrong with it. */
export function TextField({
  field,
  label,
  hint,
  value,
  problem,
  onChange,
}: {
  field: FieldKey
  label: string
  /** What an empty field means. */
  hint: string
  value: string
  problem: string | undefined
  onChange(value: string): void
}) {
  const id = fieldId(field)
  return (
    <div className="flex flex-col gap-0.5 text-sm">
      <label htmlFor={id} className="font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        type="text"
        value={value}
        placeholder={hint}
        // A little past the bound, so that a longer text is said to be too long, not cut.
        maxLength={MAX_SETTING_TEXT + 1}
        onChange={(event) => onChange(event.target.value)}
        className="w-80 max-w-full rounded border border-slate-300 px-2 py-1 aria-[invalid=true]:border-red-600"
        {...invalidProps(field, problem)}
      />
      <FieldProblem field={field} problem={problem} />
    </div>
  )
}
