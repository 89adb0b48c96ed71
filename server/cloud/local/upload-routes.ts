import { posix } from 'node:path'
import { Hono } from 'hono'
import type { CloudAccess } from '../../auth/cloud-access.ts'
import { BoqError } from '../../boq/errors.ts'
import { detect } from '../../boq/read/detect.ts'
import { AppError } from '../../errors.ts'
import { checkDrawingName } from '../names.ts'
import type { CloudBackend } from '../types.ts'
import { decodeId } from './ids.ts'
import { isLocalCloud } from './local-cloud.ts'
import { readLimitedForm } from './upload-form.ts'

/** Room for the form's id fields and part headers around the drawing itself. */
const FORM_ALLOWANCE = 64 * 1024
const MAX_ID_LENGTH = 2048
/** detect() reads the header only. */
const HEADER_BYTES = 512
const SHAPE = 'fields projectId, folderId, optional itemId, and file'

/**
 * POST /upload (mounted under /api/local): puts a drawing into a folder of the local cloud, as a
 * new item or as the next version of one. `maxFileBytes` is BOQ_MAX_FILE_MB in bytes.
 * GET /upload says whether uploads are possible here, so the app offers them only when they are.
 */
export function uploadRoutes(cloud: CloudBackend, access: CloudAccess, maxFileBytes: number): Hono {
  const routes = new Hono()

  // 200 either way (the mode is no secret: the login address tells it too), so that asking never
  // shows as a failed request in the browser; no session needed.
  routes.get('/upload', (c) => {
    c.header('Cache-Control', 'no-store')
    return c.json({ available: isLocalCloud(cloud) })
  })

  routes.post('/upload', async (c) => {
    if (!isLocalCloud(cloud)) throw new AppError(404, 'Upload is available in local mode only.')
    // Who asks before reading a byte of the body.
    await access.session(c)
    const form = await readLimitedForm(c.req.raw, maxFileBytes + FORM_ALLOWANCE, () =>
      tooLarge(maxFileBytes),
    )
    const projectId = idField(form, 'projectId')
    const folderId = idField(form, 'folderId')
    const itemId = idField(form, 'itemId', true)
    const files = form.getAll('file')
    const file = files[0]
    if (files.length !== 1 || !(file instanceof File)) {
      throw new AppError(400, `Send one drawing as the form field "file" (${SHAPE}).`)
    }

    return access.run(c, async (ctx) => {
      // Ids first (404), then the name (400), the size (413) and the bytes (422): nothing is
      // written until every check has passed.
      await cloud.checkFolder(ctx, projectId, folderId)
      const fileName = checkDrawingName(
        itemId ? await cloud.itemName(projectId, folderId, itemId) : file.name,
      )
      if (file.size > maxFileBytes) throw tooLarge(maxFileBytes, file.size)
      checkDwg(fileName, new Uint8Array(await file.slice(0, HEADER_BYTES).arrayBuffer()))
      const bytes = new Uint8Array(await file.arrayBuffer())
      const written = await cloud.upload(ctx, { projectId, folderId, fileName, bytes })
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
  })

  return routes
}

function idField(form: FormData, name: string, optional = false): string {
  const value = form.get(name)
  if (value === null || value === '') {
    if (optional) return ''
    throw new AppError(400, `${name} is missing (${SHAPE}).`)
  }
  if (typeof value !== 'string') throw new AppError(400, `${name} must be text, not a file.`)
  if (value.length > MAX_ID_LENGTH) throw new AppError(400, `${name} is too long.`)
  return value
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

function tooLarge(maxBytes: number, bytes?: number): AppError {
  const limit = `the largest drawing BOQ accepts is ${megabytes(maxBytes)} MB (BOQ_MAX_FILE_MB)`
  return new AppError(
    413,
    bytes === undefined
      ? `The upload is too large: ${limit}.`
      : `The drawing is ${megabytes(bytes)} MB; ${limit}.`,
  )
}

function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024)
  return mb >= 10 ? mb.toFixed(0) : mb.toFixed(mb >= 0.1 ? 1 : 2)
}
