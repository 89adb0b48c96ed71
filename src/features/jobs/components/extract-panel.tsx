import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useId, useState } from 'react'
import { errorText } from '../../../lib/http-errors'
import { isActive } from '../../../lib/job-words'
import { type ExtractRequest, jobsQueries, rememberJob, startExtraction } from '../api/jobs-api'
import { type ExtractSelection, extractBlocker } from '../utils/extract-rule'
import {
  readUnitsChoice,
  saveUnitsChoice,
  type UnitsChoice,
  unitsToSend,
} from '../utils/units-choice'
import { UnitsFields } from './units-fields'

export const EXTRACT_STARTED = 'Extracting...Please wait a few minutes'

/** How long the info message stays at most; it goes sooner when its job ends. */
export const INFO_MESSAGE_MS = 5000

/** The job the info message announces (its id unknown when the answer named none). */
type Announcement = { jobId: string | null }

/**
 * The Extract BOQ button, why it is disabled (one line under it), its info / error message, and
 * the choice of the bill's units (kept across visits; sent only when it differs from the default).
 * The info message passes; an error stays until the next click.
 */
export function ExtractPanel({ selection }: { selection: ExtractSelection | null }) {
  const queryClient = useQueryClient()
  const reasonId = useId()
  const [announcement, setAnnouncement] = useState<Announcement | null>(null)
  const [units, setUnits] = useState(readUnitsChoice)
  const chooseUnits = (next: UnitsChoice) => {
    setUnits(next)
    saveUnitsChoice(next)
  }
  const extraction = useMutation({
    mutationFn: startExtraction,
    onMutate: () => setAnnouncement(null),
    // The button stays disabled until the jobs list shows the new job.
    onSuccess: async (accepted) => {
      setAnnouncement({ jobId: accepted.jobId })
      await rememberJob(queryClient, accepted.job)
    },
    onError: () => setAnnouncement(null),
  })
  const announced = useAnnouncedJob(announcement?.jobId ?? null)

  // The info message passes: gone after a few seconds, or as soon as its job has ended.
  useEffect(() => {
    if (announcement === null) return
    const timer = setTimeout(
      () => setAnnouncement((current) => (current === announcement ? null : current)),
      INFO_MESSAGE_MS,
    )
    return () => clearTimeout(timer)
  }, [announcement])
  useEffect(() => {
    if (announced === 'ended') setAnnouncement(null)
  }, [announced])

  const extract = (body: ExtractRequest) => {
    const chosen = unitsToSend(units)
    extraction.mutate(chosen ? { ...body, units: chosen } : body)
  }
  const blocker = extractBlocker(selection)
  const target = blocker === null && selection?.kind === 'version' ? selection.request : null
  const enabled = target !== null && !extraction.isPending

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <button
          type="button"
          disabled={!enabled}
          aria-describedby={blocker ? reasonId : undefined}
          onClick={() => target && extract(target)}
          className="rounded bg-sky-700 px-4 py-2 font-medium text-white hover:bg-sky-800 disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-500"
        >
          Extract BOQ
        </button>
        {blocker ? (
          <p id={reasonId} className="text-xs text-slate-600">
            {blocker}
          </p>
        ) : null}
      </div>
      {announcement ? (
        <p role="status" className="rounded bg-sky-50 px-3 py-2 text-sm text-sky-900">
          {EXTRACT_STARTED}
        </p>
      ) : null}
      {extraction.isError ? (
        <p role="alert" className="rounded bg-red-50 px-3 py-2 text-sm text-red-800">
          {errorText(extraction.error)}
        </p>
      ) : null}
      <UnitsFields value={units} onChange={chooseUnits} />
    </div>
  )
}

/** Whether the job an info message announced is still queued or running (from the jobs list). */
function useAnnouncedJob(jobId: string | null): 'active' | 'ended' | null {
  const jobs = useQuery({ ...jobsQueries.list(), enabled: jobId !== null })
  const job = jobId === null ? undefined : jobs.data?.find((j) => j.id === jobId)
  if (!job) return null
  return isActive(job) ? 'active' : 'ended'
}
