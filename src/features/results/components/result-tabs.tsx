import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react'
import { kindsWord } from '../utils/not-measured-words'
import { RESULT_TABS, type ResultTab } from '../utils/result-tables'

/**
 * The result's tables as tabs (the WAI-ARIA tabs pattern): arrow keys, Home and End move between
 * them and show the one reached; only the chosen tab's panel is rendered.
 */
export function ResultTabs({
  tabs = RESULT_TABS,
  tab,
  counts,
  onTab,
  children,
}: {
  /** The tabs shown, in RESULT_TABS' order (all of them by default). */
  tabs?: readonly (typeof RESULT_TABS)[number][]
  tab: ResultTab
  /** How many rows each table has, shown on its tab (when known): Not measured's are kinds. */
  counts: Partial<Record<ResultTab, number>>
  onTab(tab: ResultTab): void
  /** The chosen tab's panel. */
  children: ReactNode
}) {
  const prefix = useId()
  const buttons = useRef(new Map<ResultTab, HTMLButtonElement>())
  const move = (event: KeyboardEvent, from: number) => {
    const last = tabs.length - 1
    const to =
      event.key === 'ArrowRight'
        ? (from + 1) % tabs.length
        : event.key === 'ArrowLeft'
          ? (from + last) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null
    const next = to === null ? undefined : tabs[to]
    if (!next) return
    event.preventDefault()
    onTab(next.id)
    buttons.current.get(next.id)?.focus()
  }
  return (
    <div className="flex flex-col gap-2">
      <div
        role="tablist"
        aria-label="Result tables"
        className="flex flex-wrap gap-1 border-b border-slate-300"
      >
        {tabs.map((entry, index) => {
          const chosen = entry.id === tab
          return (
            <button
              key={entry.id}
              ref={(element) => {
                if (element) buttons.current.set(entry.id, element)
                else buttons.current.delete(entry.id)
              }}
              type="button"
              role="tab"
              id={`${prefix}-tab-${entry.id}`}
              aria-selected={chosen}
              aria-controls={chosen ? `${prefix}-panel` : undefined}
              tabIndex={chosen ? 0 : -1}
              onClick={() => onTab(entry.id)}
              onKeyDown={(event) => move(event, index)}
              className={`-mb-px rounded-t border px-3 py-1.5 text-sm ${
                chosen
                  ? 'border-slate-300 border-b-white bg-white font-semibold text-slate-900'
                  : 'border-transparent text-slate-600 hover:text-sky-700'
              }`}
            >
              {entry.label}
              {countText(entry.id, counts[entry.id])}
            </button>
          )
        })}
      </div>
      <div
        role="tabpanel"
        id={`${prefix}-panel`}
        aria-labelledby={`${prefix}-tab-${tab}`}
        className="overflow-x-auto"
      >
        {children}
      </div>
    </div>
  )
}

/** A tab's count as its label shows it: ` (12)`; the Not measured tab's with its noun, ` (22 kinds)`. */
function countText(tab: ResultTab, count: number | undefined): string {
  if (count === undefined) return ''
  return tab === 'not-measured' ? ` (${kindsWord(count)})` : ` (${count})`
}
