import { useQuery } from '@tanstack/react-query'
import { errorText } from '../../../lib/http-errors'
import { type Watch, watchesQueries } from '../api/watches-api'
import {
  folderTitle,
  stateTitle,
  stateWord,
  WAITING_TITLE,
  waitingWords,
} from '../utils/watch-words'
import { AllowButton } from './allow-button'
import { useStopWatching } from './use-watches'

const STATE_STYLE: Record<Watch['state'], string> = {
  active: 'bg-violet-100 text-violet-800',
  paused: 'bg-amber-100 text-amber-900',
}

/** The user's watched folders: each one's state, what waits, and the way to stop watching it. */
export function WatchesPanel() {
  const watches = useQuery(watchesQueries.list())
  const list = watches.data ?? []
  return (
    <section aria-label="Watched folders" className="flex flex-col gap-2">
      <h2 className="text-sm font-semibold text-slate-700">Watched folders</h2>
      {watches.isError ? (
        <p className="text-sm text-slate-500">The watched folders could not be loaded.</p>
      ) : list.length === 0 ? (
        <p className="text-sm text-slate-500">
          {watches.isPending
            ? 'Loading…'
            : 'None. Select a folder and choose Watch this folder: its new drawing versions then get their bill by themselves.'}
        </p>
      ) : (
        <ul className="flex flex-col gap-2">
          {list.map((watch) => (
            <WatchRow key={watch.id} watch={watch} />
          ))}
        </ul>
      )}
    </section>
  )
}

function WatchRow({ watch }: { watch: Watch }) {
  const stop = useStopWatching()
  const title = folderTitle(watch)
  return (
    <li className="flex flex-col gap-1 rounded border border-slate-200 bg-white p-3 text-sm">
      <div className="flex items-center justify-between gap-2">
        <span className="truncate font-medium" title={title}>
          {title}
        </span>
        <span
          title={stateTitle(watch)}
          className={`shrink-0 rounded px-2 py-0.5 text-xs ${STATE_STYLE[watch.state]}`}
        >
          {stateWord(watch)}
        </span>
      </div>
      {watch.state === 'paused' && watch.pausedReason ? (
        <p className="text-amber-900">{watch.pausedReason}</p>
      ) : null}
      {watch.consentUrl ? <AllowButton consentUrl={watch.consentUrl} /> : null}
      {watch.waiting > 0 ? (
        <span className="text-xs text-slate-600" title={WAITING_TITLE}>
          {waitingWords(watch.waiting)}
        </span>
      ) : null}
      <button
        type="button"
        disabled={stop.isPending}
        onClick={() => stop.mutate(watch)}
        className="self-start text-xs text-sky-700 underline disabled:text-slate-400"
      >
        Stop watching
      </button>
      {stop.isError ? (
        <p role="alert" className="text-xs text-red-800">
          Could not stop watching: {errorText(stop.error)}
        </p>
      ) : null}
    </li>
  )
}
