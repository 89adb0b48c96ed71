import { createWriteStream } from 'node:fs'
import { posix } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { type Handler, Hono } from 'hono'
import type { CloudAccess } from '../../auth/cloud-access.ts'
import { BoqError } from '../../boq/model/boq-error.ts'
import { detect } from '../../boq/read/detect.ts'
import { AppError } from '../../errors.ts'
import { checkDrawingName } from '../names.ts'
import {
  MAX_TRANSFERS,
  MAX_TRANSFERS_PER_PERSON,
  type TransferSlot,
  transferSlots,
} from '../transfer-slots.ts'
import { decodeId } from './ids.ts'
import type { LocalCloud } from './local-cloud.ts'
import { discardBody, FORM_SHAPE, readUploadForm, type UploadForm } from './upload-form.ts'
import { UPLOAD_PACE, type UploadPace } from './upload-pace.ts'

const MAX_ID_LENGTH = 2048
/** detect() reads the header only. */
const HEADER_BYTES = 512

/**
 * GET /upload's answer: whether this server takes uploads. No session needed: the mode is no
 * secret (the login address tells it too).
 */
export function uploadAvailability(available: boolean): Handler {
  return (c) => {
    c.header('Cache-Control', 'no-store')
    return c.json({ available })
  }
}

/** How uploads share the server; the defaults, or others for tests. */
export interface UploadLimits {
  /** The slowest a body may arrive before the upload is stopped (408). */
  pace: UploadPace
  /** Uploads received at once (503 past that), and of them by one person (429 past that). */
  places: { max: number; perPerson: number }
}

export const UPLOAD_LIMITS: UploadLimits = {
  pace: UPLOAD_PACE,
  places: { max: MAX_TRANSFERS, perPerson: MAX_TRANSFERS_PER_PERSON },
}

/**
 * POST /upload (mounted under /api/local, in local mode only): puts a drawing into a folder of the
 * local cloud, as a new item or as the next version of one. `maxFileBytes` is BOQ_MAX_FILE_MB in
 * bytes. The drawing streams to disk as it arrives; at most MAX_TRANSFERS uploads at once (503
 * past that), MAX_TRANSFERS_PER_PERSON of them a person's (429 past that), each stopped when its
 * body comes slower than UPLOAD_PACE (408), its place given back. GET /upload says uploads are
 * possible here (in Autodesk mode it says they are not: `noLocalRoutes`), so the app offers them
 * only when they are.
 */
export function uploadRoutes(
  cloud: LocalCloud,
  access: CloudAccess,
  maxFileBytes: number,
  limits: UploadLimits = UPLOAD_LIMITS,
): Hono {
  const routes = new Hono()
  const uploads = transferSlots('uploads', limits.places.max, limits.places.perPerson)

  routes.get('/upload', uploadAvailability(true))

  routes.post('/upload', async (c) => {
    // Who asks before reading a byte of the body.
    const { user } = await access.session(c)
    let slot: TransferSlot
    try {
      slot = uploads.take(user.userId)
    } catch (busy) {
      // Read to its end (and dropped) first: a client cut off while sending may never see the 503.
      await discardBody(c.req.raw, maxFileBytes, limits.pace)
      throw busy
    }
    let form: UploadForm
    try {
      form = readUploadForm(c.req.raw, maxFileBytes, () => tooLarge(maxFileBytes), limits.pace)
    } catch (error) {
      slot.release()
      throw error
    }
    try {
      const { fields, fileName: sentName, bytes } = await form.file
      const projectId = idField(fields, 'projectId')
      const folderId = idField(fields, 'folderId')
      const itemId = idField(fields, 'itemId', true)

      return await access.run(c, async (ctx) => {
        // Ids first (404), then the name (400) and the first bytes (422): nothing is written
        // until they have passed. The size (413) is counted as the bytes go to disk.
        await cloud.checkFolder(ctx, projectId, folderId)
        const fileName = checkDrawingName(
          itemId ? await cloud.itemName(projectId, folderId, itemId) : sentName,
        )
        const { head, ended } = await readHead(bytes, HEADER_BYTES)
        checkDwg(fileName, head)
        const written = await cloud.uploadFrom(
          ctx,
          { projectId, folderId, fileName },
          async (path) => {
            await pipeline(async function* () {
              yield head
              if (!ended) yield* bytes
            }, createWriteStream(path))
            // Whatever follows the file in the form is read, and refused, before it is a version.
            await form.done
          },
        )
        // The item's name as it is in the folder: one written by hand decomposed (NFD) keeps it.
        const itemRel = decodeId('item', written.itemId)
        c.header('Cache-Control', 'no-store')
        return c.json(
          {
            itemId: written.itemId,
            versionNumber: written.versionNumber,
            fileName: itemRel === undefined ? fileName : posix.basename(itemRel),
          },
          201,
        )
      })
    } catch (error) {
      // The form's own refusal says best why reading it failed (a write cut short, say).
      const reason = error instanceof AppError ? error : (form.refusal() ?? error)
      form.abort(reason instanceof Error ? reason : new Error(String(reason)))
      throw reason
    } finally {
      slot.release()
    }
  })

  return routes
}

function idField(fields: ReadonlyMap<string, string>, name: string, optional = false): string {
  const value = fields.get(name)
  if (value === undefined || value === '') {
    if (optional) return ''
    throw new AppError(400, `${name} is missing (${FORM_SHAPE}).`)
  }
  if (value.length > MAX_ID_LENGTH) throw new AppError(400, `${name} is too long.`)
  return value
}

/**
 * The first `count` bytes of the stream, or a few more (whole chunks), and whether it ended
 * there; the stream is left paused, the rest of its bytes unread.
 */
function readHead(stream: Readable, count: number): Promise<{ head: Buffer; ended: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let length = 0
    const stop = () => {
      stream.off('data', onData)
      stream.off('end', onEnd)
      stream.off('error', onError)
      stream.off('close', onClose)
    }
    const onData = (chunk: Buffer) => {
      chunks.push(chunk)
      length += chunk.byteLength
      if (length < count) return
      stop()
      stream.pause()
      resolve({ head: Buffer.concat(chunks), ended: false })
    }
    const onEnd = () => {
      stop()
      resolve({ head: Buffer.concat(chunks), ended: true })
    }
    const onError = (error: Error) => {
      stop()
      reject(error)
    }
    const onClose = () => {
      stop()
      reject(stream.errored ?? new AppError(400, 'The upload ended before its file did.'))
    }
    // Refused (destroyed) while the checks before this ran.
    if (stream.destroyed) return onClose()
    stream.on('data', onData)
    stream.once('end', onEnd)
    stream.once('error', onError)
    stream.once('close', onClose)
  })
}

/** A DWG the reader knows, by its header: anything else is refused with the reader's reason. */
function checkDwg(fileName: string, head: Uint8Array): void {
  let reason: string
  try {
    if (detect(head).format === 'dwg') return
    reason = 'not a DWG file (it is a DXF drawing: save it as DWG first)'
  } catch (error) {
    if (!(error instanceof BoqError)) throw error
    reason = error.message.replace(/^./, (first) => first.toLowerCase()).replace(/\.$/, '')
  }
  throw new AppError(422, `"${fileName}" was not uploaded: ${reason}.`)
}

function tooLarge(maxBytes: number): AppError {
  return new AppError(
    413,
    `The upload is too large: the largest drawing BOQ accepts is ${megabytes(maxBytes)} MB (BOQ_MAX_FILE_MB).`,
  )
}

function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024)
  return mb >= 10 ? mb.toFixed(0) : mb.toFixed(mb >= 0.1 ? 1 : 2)
}
