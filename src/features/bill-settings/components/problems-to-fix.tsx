import { Fragment } from 'react'
import { fieldId, type PlacedProblem } from '../utils/settings-problems'

/** How many fields are named one by one; the rest are counted. */
const NAMED = 10

/**
 * Beside Save: how many fields are wrong and which, each a button that puts the focus in its
 * field (an adjustment far down may be off screen).
 */
export function ProblemsToFix({ placed }: { placed: PlacedProblem[] }) {
  const fields = [...new Map(placed.map((problem) => [problem.key, problem])).values()]
  if (fields.length === 0) return null
  const named = fields.slice(0, NAMED)
  return (
    <p className="text-sm text-red-700">
      {fields.length === 1 ? '1 field needs fixing:' : `${fields.length} fields need fixing:`}{' '}
      {named.map((problem, index) => (
        <Fragment key={problem.key}>
          {index > 0 ? ', ' : ''}
          <button
            type="button"
            onClick={() => document.getElementById(fieldId(problem.key))?.focus()}
            className="underline hover:text-red-900"
          >
            {problem.label}
          </button>
        </Fragment>
      ))}
      {fields.length > named.length ? ` and ${fields.length - named.length} more` : ''}
    </p>
  )
}
