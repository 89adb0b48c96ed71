import { type FieldKey, problemId } from '../utils/settings-problems'

/** What is wrong with a field, under it; the field's input is described by it. */
export function FieldProblem({ field, problem }: { field: FieldKey; problem: string | undefined }) {
  if (!problem) return null
  return (
    <span id={problemId(field)} className="block text-xs text-red-700">
      {problem}
    </span>
  )
}

/** aria-invalid and aria-describedby for a field's input when something is wrong with it. */
export function invalidProps(field: FieldKey, problem: string | undefined) {
  return problem
    ? ({ 'aria-invalid': true, 'aria-describedby': problemId(field) } as const)
    : ({} as const)
}
