import { readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { TEMP_SUFFIX } from '../lib/atomic-write.ts'
import { type JobRecords, oldestFirst } from './embedded-records.ts'
import { STOPPED_WHILE_EXTRACTING } from './failure.ts'
import { parseStoredJob, type StoredJob } from './stored-job.ts'

const ID_PATTERN = /^[0-9a-f-]{36}$/

/**
 * Loads what is on disk under `root` into `records`, then settles what a stop left behind;
 * answers the queue (the queued jobs, oldest first).
 */
export async function loadJobRecords(
  root: string,
  records: JobRecords,
  log: (message: string) => void,
): Promise<string[]> {
  for (const entry of await readdir(root, { withFileTypes: true })) {
    if (!entry.isDirectory() || !ID_PATTERN.test(entry.name)) continue
    const stored = await readRecord(records.dirOf(entry.name), entry.name, log)
    if (stored) records.jobs.set(stored.job.id, stored)
  }
  return settleInterrupted(records, log)
}

/** One job's record, its unfinished writes removed; undefined when there is none to load. */
async function readRecord(
  dir: string,
  id: string,
  log: (message: string) => void,
): Promise<StoredJob | undefined> {
  for (const name of await readdir(dir)) {
    if (name.endsWith(TEMP_SUFFIX)) await rm(join(dir, name), { force: true })
  }
  const file = join(dir, 'job.json')
  try {
    return parseStoredJob(await readFile(file, 'utf8'), id)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      // Killed between creating the folder and the first record write: the POST never answered.
      await rm(dir, { recursive: true, force: true })
    } else {
      // Left as it is, for a person to look at: the server starts without it.
      log(`jobs: skipped the unreadable record ${file}: ${errorText(error)}`)
    }
    return undefined
  }
}

/**
 * A job still running on disk was under a process that ended without putting it back (kill,
 * crash, power loss, not a graceful stop). The drawing itself may have ended it: running it
 * again could end this process too, so it is failed at once. One that had begun writing its
 * BOQ back had read its drawing: it runs again, and its note keeps it to one written version.
 */
export async function settleInterrupted(
  records: JobRecords,
  log: (message: string) => void,
): Promise<string[]> {
  const queue: string[] = []
  let interrupted = 0
  for (const stored of [...records.jobs.values()].sort(oldestFirst)) {
    const { id, status } = stored.job
    if (status === 'running' && stored.job.writeBack && stored.credentials) {
      await records.commit(id, { status: 'queued', progress: undefined })
      queue.push(id)
    } else if (status === 'running') {
      await records.commit(id, { status: 'failed', error: STOPPED_WHILE_EXTRACTING }, 'drop')
      interrupted++
    } else if (status === 'queued') {
      queue.push(id)
    }
  }
  if (interrupted > 0)
    log(`jobs: ${interrupted} job(s) running when the server stopped were failed`)
  return queue
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
