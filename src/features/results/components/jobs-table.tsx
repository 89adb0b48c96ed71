import { Link } from '@tanstack/react-router'
import type { Job } from '#contract/jobs.ts'
import { ChangesLink } from '../../../components/ui/changes-link'
import { ProgressBar } from '../../../components/ui/progress-bar'
import { WatchBadge } from '../../../components/ui/watch-badge'
import { formatDateTime } from '../../../lib/format-date'
import { changedLinesWords, progressPercent, statusWord } from '../../../lib/job-words'

/**
 * The user's jobs, newest first: each drawing's name opens the job's result page, its project
 * and folder beside it, and a bill compared with an earlier version's links to the change bill.
 */
export function JobsTable({
  jobs,
  projectName,
}: {
  jobs: readonly Job[]
  /** A project's name by its id (the id itself when the name is not known). */
  projectName(projectId: string): string
}) {
  const newestFirst = [...jobs].sort((a, b) => b.createdAt.localeCompare(a.createdAt))
  return (
    <table className="w-full border-collapse text-sm">
      <caption className="sr-only">Extraction jobs</caption>
      <thead>
        <tr className="border-b border-slate-300 text-left">
          <th scope="col" className="py-1 pr-2">
            Drawing
          </th>
          <th scope="col" className="py-1 pr-2">
            Project
          </th>
          <th scope="col" className="py-1 pr-2 text-right">
            Version
          </th>
          <th scope="col" className="py-1 pr-2">
            Status
          </th>
          <th scope="col" className="py-1 pr-2">
            Progress
          </th>
          <th scope="col" className="py-1 pr-2">
            Changes
          </th>
          <th scope="col" className="py-1">
            Extracted
          </th>
        </tr>
      </thead>
      <tbody>
        {newestFirst.map((job) => (
          <JobLine key={job.id} job={job} project={projectName(job.projectId)} />
        ))}
      </tbody>
    </table>
  )
}

function JobLine({ job, project }: { job: Job; project: string }) {
  const percent = progressPercent(job)
  return (
    <tr className="border-b border-slate-100 align-top">
      <th scope="row" className="py-1 pr-2 text-left font-normal">
        <Link to="/jobs/$jobId" params={{ jobId: job.id }} className="text-sky-700 underline">
          {job.fileName}
        </Link>
        {job.watchId ? (
          <span className="ml-2 text-xs">
            <WatchBadge />
          </span>
        ) : null}
      </th>
      <td className="py-1 pr-2">
        {project}
        {job.folder.name ? (
          <span className="block text-xs text-slate-500">{job.folder.name}</span>
        ) : null}
      </td>
      <td className="py-1 pr-2 text-right tabular-nums">{job.fileVersionNumber ?? '–'}</td>
      <td className="py-1 pr-2">
        {statusWord(job)}
        {job.status === 'failed' && job.error ? (
          <span className="block text-xs text-red-700">{job.error}</span>
        ) : null}
      </td>
      <td className="py-1 pr-2">
        {job.status === 'running' ? (
          <ProgressBar label={`Progress of ${job.fileName}`} percent={percent} className="w-24" />
        ) : job.status === 'succeeded' ? (
          '100%'
        ) : (
          '–'
        )}
      </td>
      <td className="py-1 pr-2">
        <Changes job={job} />
      </td>
      <td className="py-1 tabular-nums">{formatDateTime(job.createdAt)}</td>
    </tr>
  )
}

/**
 * How much the bill changed since the earlier version's ("12 lines changed since version 6"),
 * as the link to that change bill when the earlier bill has a job; '–' when compared with none.
 */
function Changes({ job }: { job: Job }) {
  const words = changedLinesWords(job.result)
  if (job.result?.comparedWith?.jobId) return <ChangesLink job={job}>{words}</ChangesLink>
  return words ?? '–'
}
