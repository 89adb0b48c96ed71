import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { errorText } from '../../../lib/http-errors'
import { type ExtractRequest, rememberJob, startExtraction } from '../api/jobs-api'
import { isExtractableName } from '../utils/extract-rule'
import {
  readUnitsChoice,
  saveUnitsChoice,
  type UnitsChoice,
  unitsToSend,
} from '../utils/units-choice'
import { UnitsFields } from './units-fields'

export const EXTRACT_STARTED = 'Extracting...Please wait a few minutes'

type Message = { kind: 'info' | 'error'; text: string }

/**
 * The Extract BOQ button, its info / error message, and the choice of the bill's units (kept
 * across visits; sent only when it differs from the default).
 */
export function ExtractPanel({ target }: { target: ExtractRequest | null }) {
  const queryClient = useQueryClient()
  const [message, setMessage] = useState<Message | null>(null)
  const [pending, setPending] = useState(false)
  const [units, setUnits] = useState(readUnitsChoice)
  const chooseUnits = (next: UnitsChoice) => {
    setUnits(next)
    saveUnitsChoice(next)
  }
  // A plain async handler rather than useMutation: one POST, and a kilobyte less to load.
  const extract = async (body: ExtractRequest) => {
    setPending(true)
    setMessage(null)
    try {
      const chosen = unitsToSend(units)
      const job = await startExtraction(chosen ? { ...body, units: chosen } : body)
      setMessage({ kind: 'info', text: EXTRACT_STARTED })
      await rememberJob(queryClient, job)
    } catch (error) {
      setMessage({ kind: 'error', text: errorText(error) })
    } finally {
      setPending(false)
    }
  }
  const enabled = target !== null && isExtractableName(target.fileName) && !pending

  return (
    <div className="flex flex-col gap-3">
      <button
        type="button"
        disabled={!enabled}
        onClick={() => target && extract(target)}
        className="rounded bg-sky-700 px-4 py-2 font-medium text-white hover:bg-sky-800 disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-500"
      >
        Extract BOQ
      </button>
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
