import type { CloudBackend, CloudContext } from '../cloud/types.ts'
import { AppError } from '../errors.ts'
import type { Extractor } from './extractor.ts'
import { isBoqError, tooLargeMessage } from './failure.ts'
import type { JobRecord, JobStore } from './types.ts'

/**
 * The geometry of succeeded jobs kept without it (recorded before geometry was kept, or it could
 * not be made then), built on its first request: the drawing version the job read is downloaded
 * again, read by the engine's worker as an extraction reads it (off the thread answering
 * requests), and kept with the job's results. Requests for a job being built share its build.
 */
export interface GeometryBuilds {
  /** The job's geometry, gzip-compressed as it is kept: built, kept, then answered. */
  of(job: JobRecord, ctx: CloudContext): Promise<Uint8Array>
}

export function geometryBuilds(options: {
  store: JobStore
  cloud: CloudBackend
  extractor: Extractor
  maxFileBytes: number
}): GeometryBuilds {
  const { store, cloud, extractor, maxFileBytes } = options
  const building = new Map<string, Promise<Uint8Array>>()

  async function build(job: JobRecord, ctx: CloudContext): Promise<Uint8Array> {
    const bytes = await fromCloud(async () => {
      // A drawing above the limit is refused before it is downloaded.
      const size = await cloud.storageSize(ctx, job.projectId, job.fileStorageId)
      if (size > maxFileBytes) throw new AppError(413, tooLargeMessage(size, maxFileBytes))
      return cloud.download(ctx, job.projectId, job.fileStorageId)
    })
    if (bytes.byteLength > maxFileBytes) {
      throw new AppError(413, tooLargeMessage(bytes.byteLength, maxFileBytes))
    }
    let geometry: Uint8Array | undefined
    try {
      geometry = await extractor.geometry({ bytes, fileName: job.fileName })
    } catch (error) {
      if (!isBoqError(error)) throw error
      throw new AppError(422, `The drawing this job read can no longer be read: ${reason(error)}.`)
    }
    if (!geometry) {
      throw new AppError(422, 'The drawing this job read was read, but it could not be drawn.')
    }
    await store.keepGeometry(job.id, geometry)
    return geometry
  }

  /** The cloud's answer; a version no longer there said in the words of the drawing view. */
  async function fromCloud<T>(ask: () => Promise<T>): Promise<T> {
    try {
      return await ask()
    } catch (error) {
      if (error instanceof AppError && error.status === 404) {
        throw new AppError(
          404,
          'The drawing version this job read is no longer in the cloud, so it cannot be drawn.',
        )
      }
      throw error
    }
  }

  return {
    of(job, ctx) {
      let made = building.get(job.id)
      if (!made) {
        made = build(job, ctx).finally(() => building.delete(job.id))
        building.set(job.id, made)
      }
      return made
    },
  }
}

function reason(error: Error): string {
  return error.message.trim().replace(/[.\s]*$/, '')
}
