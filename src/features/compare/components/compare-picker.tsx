import { useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import type { ComparedJobs } from '../api/compare-api'

/** A finished job the person may compare: its id and how it reads in a list. */
export type ComparableJob = { id: string; label: string }

/**
 * Two of the user's finished jobs to compare, older first (any two: versions of one drawing, or
 * two drawings); choosing opens their change bill.
 */
export function ComparePicker({
  jobs,
  chosen,
}: {
  jobs: ComparableJob[]
  chosen?: Partial<ComparedJobs>
}) {
  const navigate = useNavigate()
  const [from, setFrom] = useState(chosen?.from ?? '')
  const [to, setTo] = useState(chosen?.to ?? '')
  if (jobs.length < 2) {
    return (
      <p className="text-sm text-slate-500">
        Extract two versions of a drawing to compare their bills.
      </p>
    )
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (from && to) void navigate({ to: '/compare', search: { from, to } })
  }
  const select = (label: string, value: string, set: (id: string) => void) => (
    <label className="flex flex-col gap-1 text-sm">
      {label}
      <select
        className="rounded border border-slate-300 px-2 py-1"
        value={value}
        onChange={(event) => set(event.target.value)}
      >
        <option value="">Choose a finished extraction</option>
        {jobs.map((job) => (
          <option key={job.id} value={job.id}>
            {job.label}
          </option>
        ))}
      </select>
    </label>
  )
  return (
    <form
      aria-label="Compare two bills"
      onSubmit={submit}
      className="flex flex-wrap items-end gap-3"
    >
      {select('Before', from, setFrom)}
      {select('After', to, setTo)}
      <button
        type="submit"
        disabled={!from || !to || from === to}
        className="rounded bg-sky-700 px-3 py-1.5 text-sm text-white disabled:bg-slate-300"
      >
        Compare
      </button>
    </form>
  )
}
