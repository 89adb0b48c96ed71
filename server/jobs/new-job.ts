import { AppError } from '../errors.ts'
import type { JobFolder, JobRecord, NewJob } from './types.ts'

/** A job as it is first recorded: queued, never started. */
export function newJobRecord(id: string, userId: string, input: NewJob): JobRecord {
  const now = new Date().toISOString()
  return {
    id,
    status: 'queued',
    userId,
    fileName: input.fileName,
    projectId: input.projectId,
    fileFolderId: input.fileFolderId,
    fileStorageId: input.fileStorageId,
    ...(input.fileVersionNumber === undefined
      ? {}
      : { fileVersionNumber: input.fileVersionNumber }),
    ...(input.folder ? { folder: copyFolder(input.folder) } : {}),
    ...(input.units ? { units: { ...input.units } } : {}),
    ...(input.watchId ? { watchId: input.watchId } : {}),
    createdAt: now,
    updatedAt: now,
    attempts: 0,
  }
}

/** The 429 a user gets past BOQ_MAX_QUEUED_PER_USER. */
export function tooManyJobs(active: number, limit: number): AppError {
  return new AppError(
    429,
    `You already have ${active} extractions waiting or running (the limit is ${limit}). Wait for one to finish, then extract again.`,
  )
}

function copyFolder(folder: JobFolder): JobFolder {
  return { ...folder, ...(folder.path ? { path: [...folder.path] } : {}) }
}
