import { errorText } from '../../../lib/http-errors'
import type { PricedWith, RepricedJob } from '../api/results-api'

/** A saved table's version in words: what a bill was priced with. */
function tableWords(kind: 'rules' | 'classification', version: number): string {
  if (version === 0) return kind === 'rules' ? 'no rules' : 'no classification'
  return `${kind} version ${version}`
}

/**
 * What is older in the bill of record than the project's tables now, in sentences; none when it
 * is priced with today's tables. A bill whose versions were not recorded is older than any table
 * saved.
 */
export function staleWords(recorded: PricedWith | null, now: PricedWith): string[] {
  if (!recorded) {
    return now.rulesVersion === 0 && now.classificationVersion === 0
      ? []
      : [
          `The rules this bill was priced with were not recorded; the project’s rules are now version ${now.rulesVersion}.`,
        ]
  }
  const words: string[] = []
  if (recorded.rulesVersion !== now.rulesVersion) {
    words.push(
      `Priced with ${tableWords('rules', recorded.rulesVersion)}; the project’s rules are now version ${now.rulesVersion}.`,
    )
  }
  if (recorded.classificationVersion !== now.classificationVersion) {
    words.push(
      `Grouped by ${tableWords('classification', recorded.classificationVersion)}; the project’s classification is now version ${now.classificationVersion}.`,
    )
  }
  return words
}

const BUTTON = 'rounded border border-slate-400 px-3 py-1 hover:bg-white disabled:text-slate-400'

/**
 * Says that the bill of record is older than the project's rules, with the two ways on:
 * re-price it (a new bill of record, written back) or look at a preview with today's rules.
 */
export function BillOfRecordNotice(props: {
  stale: string[]
  previewing: boolean
  onPreview: () => void
  reprice: {
    run: () => void
    pending: boolean
    error: unknown
    done: RepricedJob | undefined
  }
}) {
  const { stale, previewing, onPreview, reprice } = props
  return (
    <>
      {stale.length > 0 ? (
        <section
          aria-label="Older than the project’s rules"
          className="flex flex-col gap-2 rounded border border-amber-300 bg-amber-50 p-3"
        >
          {stale.map((sentence) => (
            <p key={sentence}>{sentence}</p>
          ))}
          <p className="flex flex-wrap gap-2">
            <button
              type="button"
              className={BUTTON}
              disabled={reprice.pending}
              onClick={reprice.run}
            >
              {reprice.pending ? 'Re-pricing…' : 'Re-price'}
            </button>
            {previewing ? null : (
              <button type="button" className={BUTTON} onClick={onPreview}>
                Preview with today’s rules
              </button>
            )}
          </p>
          {reprice.error ? (
            <p role="alert" className="text-red-700">
              Could not re-price: {errorText(reprice.error)}
            </p>
          ) : null}
        </section>
      ) : null}
      {reprice.done ? (
        <p role="status" className="text-slate-700">
          Re-priced with {tableWords('rules', reprice.done.rulesVersion ?? 0)}
          {reprice.done.written
            ? `: written back as ${reprice.done.written.fileName} version ${reprice.done.written.versionNumber}.`
            : '.'}
        </p>
      ) : null}
    </>
  )
}
