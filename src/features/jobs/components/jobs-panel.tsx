import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useEffect, useRef } from 'react'
import { ChangesLink } from '../../../components/ui/changes-link'
import { ProgressBar } from '../../../components/ui/progress-bar'
import { WatchBadge } from '../../../components/ui/watch-badge'
import { apiUrl } from '../../../lib/api-client'
import { formatDateTime } from '../../../lib/format-date'
import { changedLinesWords, drawingRead, progressPercent, statusWord } from '../../../lib/job-words'
import {
  type Job,
  type JobLocation,
  type JobStatus,
  jobsQueries,
  locationOf,
} from '../api/jobs-api'
import { describeUnits } from '../utils/units-choice'

const STATUS_STYLE: Record<JobStatus, string> = {
  queued: 'bg-slate-100 text-slate-700',
  running: 'bg-sky-100 text-sky-800',
  succeeded: 'bg-emerald-100 text-emerald-800',
  failed: 'bg-red-100 text-red-800',
}

/** The first warnings a card lists; the rest are counted ("and N more"). */
export const SHOWN_WARNINGS = 3

type Props = {
  /** Called once for each job seen queued or running that has now succeeded. */
  onJobSucceeded?(job: Job): void
  /** Opens the folder a job wrote into, with the written file selected (a "Show in tree" action). */
  onShowInTree?(location: JobLocation): void
  /** The person watches folders: jobs may start by themselves, so the list is asked again. */
  watching?: boolean
}

/** The user's extraction jobs; polls while one is queued or running, or folders are watched. */
export function JobsPanel({ onJobSucceeded, onShowInTree, watching = false }: Props) {
  const jobs = useQuery(jobsQueries.list({ watching }))
  const list = jobs.data ?? []
  useSucceededJobs(jobs.data, onJobSucceeded)

  return (
    <section aria-label="Extraction jobs" className="flex flex-col gap-2">
      <div className="flex items-baseline justify-between">
        <h2 className="text-sm font-semibold text-slate-700">Extraction jobs</h2>
        <Link to="/jobs" className="text-xs text-sky-700 underline">
          All extractions
        </Link>
      </div>
      {jobs.isError ? (
        <p className="text-sm text-slate-500">The jobs could not be loaded.</p>
      ) : list.length === 0 ? (
        <p className="text-sm text-slate-500">{jobs.isPending ? 'Loading…' : 'No jobs yet.'}</p>
      ) : (
        <ul className="flex max-h-[55vh] flex-col gap-2 overflow-y-auto">
          {list.map((job) => (
            <JobRow key={job.id} job={job} onShowInTree={onShowInTree} />
          ))}
        </ul>
      )}
    </section>
  )
}

function JobRow({ job, onShowInTree }: { job: Job; onShowInTree: Props['onShowInTree'] }) {
  const percent = progressPercent(job)
  const units = describeUnits(job.units)
  const result = job.status === 'succeeded' ? job.result : undefined
  const warned = (result?.warningCount ?? 0) > 0
  const read = drawingRead(job)
  const location = locationOf(job)
  const changed = changedLinesWords(result)
  return (
    <li className="rounded border border-slate-200 bg-white p-3 text-sm">
      {/* The name and version wrap beside the badge: cut, the version would not show. */}
      <div className="flex items-start justify-between gap-2">
        <span className="min-w-0 font-medium [overflow-wrap:anywhere]" title={read}>
          {read}
        </span>
        <span
          className={`shrink-0 rounded px-2 py-0.5 text-xs ${warned ? 'bg-amber-100 text-amber-900' : STATUS_STYLE[job.status]}`}
        >
          {statusWord(job)}
        </span>
      </div>
      <div className="mt-1 flex items-center gap-2 text-xs text-slate-500">
        {formatDateTime(job.createdAt)}
        {job.watchId ? <WatchBadge /> : null}
      </div>
      {units ? <div className="mt-1 text-xs text-slate-500">{units}</div> : null}
      {job.status === 'running' ? (
        <ProgressBar label={`Progress of ${job.fileName}`} percent={percent} className="mt-2" />
      ) : null}
      {result ? (
        <div className="mt-2 flex flex-col gap-1">
          <span className="text-slate-700">
            Written to {job.folder.name ?? "the drawing's folder"} as {result.fileName}, version{' '}
            {result.versionNumber}
          </span>
          {changed ? <span className="text-slate-700">{changed}</span> : null}
          <span className="flex flex-wrap gap-x-3">
            <Link to="/jobs/$jobId" params={{ jobId: job.id }} className="text-sky-700 underline">
              Open result
            </Link>
            <a className="text-sky-700 underline" href={apiUrl(result.xlsxUrl)} download>
              Download XLSX
            </a>
            <a className="text-sky-700 underline" href={apiUrl(result.csvUrl)} download>
              Download CSV
            </a>
            <ChangesLink job={job} />
            {onShowInTree && location ? (
              <button
                type="button"
                className="text-sky-700 underline"
                onClick={() => onShowInTree(location)}
              >
                Show in tree
              </button>
            ) : null}
          </span>
          {warned ? <Warnings warnings={result.warnings} count={result.warningCount} /> : null}
        </div>
      ) : null}
      {job.status === 'failed' ? (
        <p className="mt-2 text-red-700">{job.error || 'The extraction failed.'}</p>
      ) : null}
    </li>
  )
}

/** The bill's first warnings, and how many more the XLSX lists. */
function Warnings({ warnings, count }: { warnings: string[]; count: number }) {
  const shown = warnings.slice(0, SHOWN_WARNINGS)
  const more = count - shown.length
  return (
    <div className="rounded bg-amber-50 px-2 py-1 text-xs text-amber-900">
      <ul aria-label="Warnings" className="list-disc pl-4">
        {shown.map((warning, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a static list, never reordered
          <li key={index}>{warning}</li>
        ))}
      </ul>
      {more > 0 ? <p>and {more} more (all are listed in the XLSX)</p> : null}
    </div>
  )
}

/**
 * Reports jobs that turned 'succeeded' while this page watched them, or that came new and already
 * succeeded after the first list (not old ones on load). `list`: undefined until loaded.
 */
function useSucceededJobs(list: Job[] | undefined, onJobSucceeded: Props['onJobSucceeded']) {
  const seen = useRef(new Map<string, JobStatus>())
  const listed = useRef(false)
  const callback = useRef(onJobSucceeded)
  callback.current = onJobSucceeded
  useEffect(() => {
    if (!list) return
    for (const job of list) {
      const before = seen.current.get(job.id)
      seen.current.set(job.id, job.status)
      // A job new since the first list (one a watch started between two polls) counts too.
      const unseen = before === undefined && listed.current
      if (job.status === 'succeeded' && (before === 'queued' || before === 'running' || unseen)) {
        callback.current?.(job)
      }
    }
    listed.current = true
  }, [list])
}
