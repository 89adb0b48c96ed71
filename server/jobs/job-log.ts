import type { LogFields, Logger } from '../log.ts'
import type { JobChange } from './types.ts'

/**
 * One log line per change of a job's status: `job queued`, `job running`, `job succeeded`,
 * `job failed`, `job requeued` (put back by a graceful stop), with the job's id, its user and
 * file name, and how long the state just left lasted where this process saw it begin:
 * `queuedMs` when it starts running, `runMs` when it ends or is put back, `totalMs` (since it
 * was submitted) when it ends.
 */
export function createJobLog(
  logger: Pick<Logger, 'info'>,
  now: () => number = Date.now,
): (change: JobChange) => void {
  /** When each job started running in this process. */
  const runningSince = new Map<string, number>()
  const ranFor = (id: string, at: number): LogFields => {
    const since = runningSince.get(id)
    runningSince.delete(id)
    return since === undefined ? {} : { runMs: at - since }
  }

  return ({ job, previous }) => {
    const at = now()
    const fields: LogFields = { jobId: job.id, userId: job.userId, fileName: job.fileName }
    switch (job.status) {
      case 'queued':
        if (previous?.status === 'running') {
          logger.info('job requeued', { ...fields, ...ranFor(job.id, at) })
        } else {
          logger.info('job queued', fields)
        }
        return
      case 'running': {
        runningSince.set(job.id, at)
        // A queued job's record changes only when it is queued: its last change says since when.
        const queuedAt = Date.parse(previous?.updatedAt ?? job.createdAt)
        logger.info('job running', {
          ...fields,
          attempt: job.attempts,
          ...(Number.isNaN(queuedAt) ? {} : { queuedMs: at - queuedAt }),
        })
        return
      }
      case 'succeeded':
      case 'failed': {
        const created = Date.parse(job.createdAt)
        logger.info(`job ${job.status}`, {
          ...fields,
          ...ranFor(job.id, at),
          ...(Number.isNaN(created) ? {} : { totalMs: at - created }),
          ...(job.status === 'failed' ? { error: job.error } : {}),
        })
      }
    }
  }
}
