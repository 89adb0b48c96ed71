import { useQuery } from '@tanstack/react-query'
import { ProgressBar } from '../../../components/ui/progress-bar'
import { errorText } from '../../../lib/http-errors'
import { drawingRead, progressPercent } from '../../../lib/job-words'
import { type Job, resultQueries } from '../api/results-api'
import type { DrawingSlot } from './drawing-slot'
import type { LocationsSlot } from './locations-slot'
import { ResultDownloads } from './result-downloads'
import { ResultView } from './result-view'

/**
 * The result of one job: its bill once it has succeeded; until then what it is doing (followed
 * every second), or why it failed; the server's own words when there is no such job.
 */
export function JobResult({
  jobId,
  Drawing,
  Locations,
}: {
  jobId: string
  Drawing: DrawingSlot
  Locations?: LocationsSlot
}) {
  const job = useQuery(resultQueries.job(jobId))
  if (job.isPending) return <p className="text-sm text-slate-500">Loading the job…</p>
  if (job.isError) {
    return (
      <p role="alert" className="text-sm text-red-700">
        {errorText(job.error)}
      </p>
    )
  }
  const { result } = job.data
  if (job.data.status !== 'succeeded' || !result) return <JobState job={job.data} />
  if (result.jsonUrl === null) return <NoKeptBill job={job.data} />
  return (
    <KeptBill job={job.data} jsonUrl={result.jsonUrl} Drawing={Drawing} Locations={Locations} />
  )
}

/** The bill once it has come, and the drawing beside it already while it comes. */
function KeptBill({
  job,
  jsonUrl,
  Drawing,
  Locations,
}: {
  job: Job
  jsonUrl: string
  Drawing: DrawingSlot
  Locations?: LocationsSlot
}) {
  const bill = useQuery(resultQueries.bill(job.id, jsonUrl))
  if (bill.isError) {
    return (
      <p role="alert" className="text-sm text-red-700">
        {errorText(bill.error)}
      </p>
    )
  }
  return <ResultView job={job} boq={bill.data} Drawing={Drawing} Locations={Locations} />
}

/** A job not finished, or failed: what it is doing, or why it failed. */
function JobState({ job }: { job: Job }) {
  const percent = progressPercent(job)
  return (
    <section aria-label="Extraction" className="flex flex-col gap-2 text-sm">
      <h1 className="text-lg font-semibold text-slate-800">Bill of {drawingRead(job)}</h1>
      {job.status === 'queued' ? (
        <p>Queued: the bill shows here once the extraction has run.</p>
      ) : job.status === 'running' ? (
        <>
          <p>Running: {percent}%. The bill shows here once the extraction ends.</p>
          <ProgressBar
            label={`Progress of ${job.fileName}`}
            percent={percent}
            className="max-w-md"
          />
        </>
      ) : (
        <p role="alert" className="text-red-700">
          The extraction failed: {job.error || 'no reason was given.'}
        </p>
      )}
    </section>
  )
}

/** A job recorded before bills were kept as JSON: its files are there, its bill cannot be shown. */
function NoKeptBill({ job }: { job: Job }) {
  return (
    <section aria-label="Extraction" className="flex flex-col gap-2 text-sm">
      <h1 className="text-lg font-semibold text-slate-800">Bill of {drawingRead(job)}</h1>
      <p>This extraction was made before bills were kept for the app: download it instead.</p>
      {job.result ? <ResultDownloads result={job.result} /> : null}
    </section>
  )
}
