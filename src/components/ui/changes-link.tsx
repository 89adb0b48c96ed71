import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import type { Job } from '#contract/jobs.ts'

/**
 * The link to a job's change bill: from the earlier version's job its bill was compared with, to
 * this one; "Changes since version 6" unless told what to say. Nothing when the earlier bill has
 * no job to compare with.
 */
export function ChangesLink({ job, children }: { job: Job; children?: ReactNode }) {
  const earlier = job.result?.comparedWith
  if (!earlier?.jobId) return null
  return (
    <Link
      to="/compare"
      search={{ from: earlier.jobId, to: job.id }}
      className="text-sky-700 underline"
    >
      {children ??
        `Changes since ${earlier.versionNumber === null ? 'the earlier version' : `version ${earlier.versionNumber}`}`}
    </Link>
  )
}
