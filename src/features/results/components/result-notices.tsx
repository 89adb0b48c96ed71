import { useState } from 'react'
import type { BoqNotMeasured } from '#contract/boq.ts'
import { formatCount } from '../../../lib/format-quantity'
import { entitiesWord, kindsWord } from '../utils/not-measured-words'

/** The warnings a banner lists before "Show all". */
export const SHOWN_WARNINGS = 10

/**
 * What a reader of the bill must know, at the top of it: every warning, and everything the bill
 * does not measure: how many entities of how many kinds (the Not measured tab counts the same
 * kinds), each kind with its count; the reasons are on that tab.
 */
export function ResultNotices({
  warnings,
  notMeasured,
}: {
  warnings: readonly string[]
  notMeasured: readonly BoqNotMeasured[]
}) {
  const [allWarnings, setAllWarnings] = useState(false)
  const unmeasured = notMeasured.reduce((sum, entry) => sum + entry.count, 0)
  if (warnings.length === 0 && unmeasured === 0) return null
  const shown = allWarnings ? warnings : warnings.slice(0, SHOWN_WARNINGS)
  return (
    <section aria-label="Warnings and items not measured" className="flex flex-col gap-2">
      {warnings.length > 0 ? (
        <div className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
          <h2 className="font-semibold">
            {warnings.length === 1 ? '1 warning' : `${formatCount(warnings.length)} warnings`}
          </h2>
          <ul className="list-disc pl-5">
            {shown.map((warning, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a static list, never reordered
              <li key={index}>{warning}</li>
            ))}
          </ul>
          {shown.length < warnings.length ? (
            <button
              type="button"
              className="text-amber-900 underline"
              onClick={() => setAllWarnings(true)}
            >
              Show all {formatCount(warnings.length)} warnings
            </button>
          ) : null}
        </div>
      ) : null}
      {unmeasured > 0 ? (
        <div className="rounded border border-slate-300 bg-slate-100 px-3 py-2 text-sm text-slate-800">
          <h2 className="font-semibold">
            Not measured: {entitiesWord(unmeasured)} of {kindsWord(notMeasured.length)}
          </h2>
          <p>
            {notMeasured.map((entry) => `${entry.type} (${formatCount(entry.count)})`).join(', ')}
          </p>
        </div>
      ) : null}
    </section>
  )
}
