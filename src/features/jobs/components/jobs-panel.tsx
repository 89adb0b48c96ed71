import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { apiUrl } from '../../../lib/api-client'
import { formatDateTime } from '../../../lib/format-date'
import { type Job, type JobStatus, jobsQueries } from '../api/jobs-api'
import { describeUnits } from '../utils/units-choice'

const STATUS_WORD: Record<JobStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Done',
  failed: 'Failed',
}

const STATUS_STYLE: Record<JobStatus, string> = {
  queued: 'bg-slate-100 text-slate-700',
  running: 'bg-sky-100 text-sky-800',
  succeeded: 'bg-emerald-100 text-emerald-800',
  failed: 'bg-red-100 text-red-800',
}

type Props = {
  /** Called once for each job seen queued or running that has now succeeded. */
  onJobSucceeded?(job: Job): void
}

/** The user's extraction jobs; polls while one is queued or running. */
export function JobsPanel({ onJobSucceeded }: Props) {
  const jobs = useQuery(jobsQueries.list())
  const list = jobs.data ?? []
  useSucceededJobs(list, onJobSucceeded)

  return (
    <section aria-label="Extraction jobs" className="flex flex-col gap-2">
      <h2 className="text-sm font-semibold text-slate-700">Extraction jobs</h2>
      {jobs.isError ? (
        <p className="text-sm text-slate-500">The jobs could not be loaded.</p>
      ) : list.length === 0 ? (
        <p className="text-sm text-slate-500">{jobs.isPending ? 'Loading…' : 'No jobs yet.'}</p>
      ) : (
        <ul className="flex max-h-[55vh] flex-col gap-2 overflow-y-auto">
          {list.map((job) => (
            <JobRow key={job.id} job={job} />
          ))}
        </ul>
      )}
    </section>
  )
}

function JobRow({ job }: { job: Job }) {
  const percent = Math.round(Math.min(1, Math.max(0, job.progress ?? 0)) * 100)
  const units = describeUnits(job.units)
  return (
    <li className="rounded border border-slate-200 bg-white p-3 text-sm">
      <div className="flex items-center justify-between gap-2">
        <span className="truncate font-medium" title={job.fileName}>
          {job.fileName}
        </span>
        <span className={`shrink-0 rounded px-2 py-0.5 text-xs ${STATUS_STYLE[job.status]}`}>
          {STATUS_WORD[job.status]}
        </span>
      </div>
      <div className="mt-1 text-xs text-slate-500">{formatDateTime(job.createdAt)}</div>
      {units ? <div className="mt-1 text-xs text-slate-500">{units}</div> : null}
      {job.status === 'running' ? (
        <div
          role="progressbar"
          aria-label={`Progress of ${job.fileName}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="mt-2 h-2 overflow-hidden rounded bg-slate-200"
        >
          <div className="h-full bg-sky-600 transition-all" style={{ width: `${percent}%` }} />
        </div>
      ) : null}
      {job.status === 'succeeded' && job.result ? (
        <div className="mt-2 flex flex-col gap-1">
          <span className="text-slate-700">{job.result.fileName}</span>
          <span className="flex gap-3">
            <a className="text-sky-700 underline" href={apiUrl(job.result.xlsxUrl)} download>
              Download XLSX
            </a>
            <a className="text-sky-700 underline" href={apiUrl(job.result.csvUrl)} download>
              Download CSV
            </a>
          </span>
        </div>
      ) : null}
      {job.status === 'failed' ? (
        <p className="mt-2 text-red-700">{job.error || 'The extraction failed.'}</p>
      ) : null}
    </li>
  )
}

/** Reports jobs that turned 'succeeded' while this page watched them (not old ones on load). */
function useSucceededJobs(list: Job[], onJobSucceeded: Props['onJobSucceeded']) {
  const seen = useRef(new Map<string, JobStatus>())
  const callback = useRef(onJobSucceeded)
  callback.current = onJobSucceeded
  useEffect(() => {
    for (const job of list) {
      const before = seen.current.get(job.id)
      seen.current.set(job.id, job.status)
      if (job.status === 'succeeded' && (before === 'queued' || before === 'running')) {
        callback.current?.(job)
      }
    }
  }, [list])
}
