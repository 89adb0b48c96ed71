import { WATCH_BADGE, WATCH_BADGE_TITLE } from '../../lib/job-words'

/** Marks a job a watched folder started by itself. */
export function WatchBadge() {
  return (
    <span title={WATCH_BADGE_TITLE} className="rounded bg-violet-100 px-1.5 py-0.5 text-violet-800">
      {WATCH_BADGE}
    </span>
  )
}
