import type { Watch } from '../api/watches-api'
import { stateTitle, stateWord } from '../utils/watch-words'

/** An open eye; struck through while the watch is paused. */
const EYE = 'M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12zM12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z'
const STRUCK = 'M4 4l16 16'

/** A watched folder's mark: an eye and "Watched" (or "Watch paused"). */
export function WatchMark({ watch }: { watch: Watch }) {
  const paused = watch.state === 'paused'
  return (
    <span
      title={stateTitle(watch)}
      className={`ml-auto flex shrink-0 items-center gap-1 text-xs ${paused ? 'text-amber-800' : 'text-violet-800'}`}
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="h-4 w-4 fill-none stroke-current"
        strokeWidth="1.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d={EYE} />
        {paused ? <path d={STRUCK} /> : null}
      </svg>
      {stateWord(watch)}
    </span>
  )
}
