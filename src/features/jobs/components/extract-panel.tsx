import { useQuery, useQueryClient } from '@tanstack/react-query'
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

/**
 * The info message announces one job (its id unknown when the answer named none); an error stays
 * until the next click.
 */
type Message =
  | { kind: 'info'; text: string; jobId: string | null }
  | { kind: 'error'; text: string }

/**
 * The Extract BOQ button, why it is disabled (one line under it), its info / error message, and
 * the choice of the bill's units (kept across visits; sent only when it differs from the default).
 */
export function ExtractPanel({ selection }: { selection: ExtractSelection | null }) {
  const queryClient = useQueryClient()
  const reasonId = useId()
  const [message, setMessage] = useState<Message | null>(null)
  const [pending, setPending] = useState(false)
  const [units, setUnits] = useState(readUnitsChoice)
  const chooseUnits = (next: UnitsChoice) => {
    setUnits(next)
    saveUnitsChoice(next)
  }
  const announced = useAnnouncedJob(message?.kind === 'info' ? message.jobId : null)

  // The info message passes: gone after a few seconds, or as soon as its job has ended.
  useEffect(() => {
    if (message?.kind !== 'info') return
    const timer = setTimeout(
      () => setMessage((current) => (current === message ? null : current)),
      INFO_MESSAGE_MS,
    )
    return () => clearTimeout(timer)
  }, [message])
  useEffect(() => {
    if (announced === 'ended') setMessage((current) => (current?.kind === 'info' ? null : current))
  }, [announced])

  // A plain async handler rather than useMutation: one POST, and a kilobyte less to load.
  const extract = async (body: ExtractRequest) => {
    setPending(true)
    setMessage(null)
    try {
      const chosen = unitsToSend(units)
      const accepted = await startExtraction(chosen ? { ...body, units: chosen } : body)
      setMessage({ kind: 'info', text: EXTRACT_STARTED, jobId: accepted.jobId })
      await rememberJob(queryClient, accepted.job)
    } catch (error) {
      setMessage({ kind: 'error', text: errorText(error) })
    } finally {
      setPending(false)
    }
  }
  const blocker = extractBlocker(selection)
  const target = blocker === null && selection?.kind === 'version' ? selection.request : null
  const enabled = target !== null && !pending

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
      {message?.kind === 'info' ? (
        <p role="status" className="rounded bg-sky-50 px-3 py-2 text-sm text-sky-900">
          {message.text}
        </p>
      ) : null}
      {message?.kind === 'error' ? (
        <p role="alert" className="rounded bg-red-50 px-3 py-2 text-sm text-red-800">
          {message.text}
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
