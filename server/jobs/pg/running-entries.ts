import type { JobAttempt, PgBoss } from 'pg-boss'
import { EXTRACT_QUEUE } from './queue.ts'

/**
 * The queue entries this process runs, by job id: the entry, its key as the job's row names it
 * (`attempt`), and the timer that keeps its heartbeats going, so that pg-boss does not hand the
 * job to another worker while this one lives.
 */
export function runningEntries(
  boss: PgBoss,
  heartbeatSeconds: number,
  log: (message: string, error?: unknown) => void,
) {
  const running = new Map<
    string,
    { entry: JobAttempt; attempt: string; heartbeat: NodeJS.Timeout }
  >()

  /** This process stops sending the job's heartbeats; the entry it ran, if it ran one. */
  function letGo(id: string): JobAttempt | undefined {
    const mine = running.get(id)
    if (!mine) return undefined
    clearInterval(mine.heartbeat)
    running.delete(id)
    return mine.entry
  }

  return {
    /** This process runs the job under `entry`, and says so twice per heartbeat period. */
    add(id: string, entry: JobAttempt, attempt: string): void {
      const heartbeat = setInterval(
        () => {
          boss
            .touch(EXTRACT_QUEUE, entry)
            .catch((error) => log(`jobs: a heartbeat of ${id} was lost`, error))
        },
        (heartbeatSeconds * 1000) / 2,
      )
      heartbeat.unref()
      running.set(id, { entry, attempt, heartbeat })
    },

    /** The key of the entry this process runs the job under, if it runs it. */
    attemptOf(id: string): string | undefined {
      return running.get(id)?.attempt
    },

    letGo,

    /** Ends this process's part in a job: no more heartbeats, and the queue entry done. */
    async settle(id: string): Promise<void> {
      const entry = letGo(id)
      if (!entry) return
      await boss
        .complete(EXTRACT_QUEUE, entry)
        .catch((error) => log(`jobs: could not mark the queue entry of ${id} done`, error))
    },

    /** Stops every heartbeat (the process closes the store). */
    clear(): void {
      for (const { heartbeat } of running.values()) clearInterval(heartbeat)
      running.clear()
    },
  }
}
