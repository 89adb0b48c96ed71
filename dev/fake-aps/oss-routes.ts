import { createHash, randomBytes } from 'node:crypto'
import type { Context, Hono } from 'hono'
import { bearer, type FakeContext, hasScope, unauthorized } from './context.ts'

/** OSS signed S3 download/upload and the fake bucket behind the signed URLs. */
export function registerOssRoutes(app: Hono, ctx: FakeContext): void {
  const { state } = ctx
  const reason = (c: Context, status: number, text: string) =>
    c.json({ reason: text }, status as 400)

  const storageIdOf = (c: Context) =>
    `urn:adsk.objects:os.object:${c.req.param('bucketKey')}/${c.req.param('objectKey')}`

  function sign(target: string, kind: 'download' | 'upload', path: string): string {
    const sig = randomBytes(24).toString('base64url')
    state.signatures.set(sig, { target, kind, expiresAt: Date.now() + 10 * 60_000 })
    return `${ctx.origin}${path}?X-Amz-Signature=${sig}`
  }

  app.get('/oss/v2/buckets/:bucketKey/objects/:objectKey/signeds3download', (c) => {
    const grant = bearer(c, ctx)
    if (!grant) return unauthorized(c)
    if (!hasScope(grant, 'data:read'))
      return reason(c, 403, 'The token does not have the data:read scope.')
    const id = storageIdOf(c)
    const object = state.objects.get(id)
    if (!object?.bytes) return reason(c, 404, 'Object not found.')
    return c.json({
      status: 'complete',
      url: sign(id, 'download', `/fake-s3/${c.req.param('bucketKey')}/${c.req.param('objectKey')}`),
      params: {},
      size: object.bytes.byteLength,
      sha1: createHash('sha1').update(object.bytes).digest('hex'),
    })
  })

  app.get('/oss/v2/buckets/:bucketKey/objects/:objectKey/signeds3upload', (c) => {
    const grant = bearer(c, ctx)
    if (!grant) return unauthorized(c)
    if (!hasScope(grant, 'data:write', 'data:create'))
      return reason(c, 403, 'The token does not have the data:write scope.')
    const id = storageIdOf(c)
    if (!state.objects.has(id))
      return reason(c, 404, 'Bucket or object not found (create a storage location first).')
    const uploadKey = randomBytes(32).toString('base64url')
    state.uploads.set(uploadKey, id)
    return c.json({
      uploadKey,
      urls: [
        sign(
          uploadKey,
          'upload',
          `/fake-s3/${c.req.param('bucketKey')}/${c.req.param('objectKey')}`,
        ),
      ],
      urlExpiration: new Date(Date.now() + 10 * 60_000).toISOString(),
      uploadExpiration: new Date(Date.now() + 24 * 3600_000).toISOString(),
    })
  })

  app.post('/oss/v2/buckets/:bucketKey/objects/:objectKey/signeds3upload', async (c) => {
    const grant = bearer(c, ctx)
    if (!grant) return unauthorized(c)
    if (!(c.req.header('content-type') ?? '').startsWith('application/json'))
      return reason(c, 400, 'Content-Type must be application/json.')
    const id = storageIdOf(c)
    let payload: { uploadKey?: unknown; size?: unknown }
    try {
      payload = await c.req.json()
    } catch {
      return reason(c, 400, 'The body must be JSON.')
    }
    const pending = pendingBytes.get(String(payload.uploadKey))
    if (state.uploads.get(String(payload.uploadKey)) !== id || !pending)
      return reason(c, 400, 'Unknown uploadKey or nothing uploaded.')
    if (payload.size !== undefined && payload.size !== pending.byteLength)
      return reason(c, 400, 'The size does not match the uploaded bytes.')
    const object = state.objects.get(id)
    if (object) object.bytes = pending
    pendingBytes.delete(String(payload.uploadKey))
    return c.json({
      bucketKey: object?.bucketKey,
      objectId: id,
      objectKey: object?.objectKey,
      size: pending.byteLength,
      contentType: 'application/octet-stream',
      location: `${ctx.origin}/oss/v2/buckets/${c.req.param('bucketKey')}/objects/${c.req.param('objectKey')}`,
    })
  })

  const pendingBytes = new Map<string, Uint8Array>()

  function checkSignature(c: Context, kind: 'download' | 'upload') {
    // S3 refuses an Authorization header next to a signature: Autodesk tokens must not go there.
    if (c.req.header('authorization'))
      return { refused: c.text('S3: only one auth mechanism allowed', 400) }
    const sig = c.req.query('X-Amz-Signature') ?? ''
    const entry = state.signatures.get(sig)
    if (!entry || entry.kind !== kind || entry.expiresAt <= Date.now())
      return { refused: c.text('S3: AccessDenied (signature)', 403) }
    return { target: entry.target }
  }

  app.get('/fake-s3/:bucketKey/:objectKey', (c) => {
    const check = checkSignature(c, 'download')
    if (check.refused) return check.refused
    const bytes = state.objects.get(check.target)?.bytes
    if (!bytes) return c.text('S3: NoSuchKey', 404)
    return c.body(new Uint8Array(bytes), 200, { 'content-type': 'application/octet-stream' })
  })

  app.put('/fake-s3/:bucketKey/:objectKey', async (c) => {
    const check = checkSignature(c, 'upload')
    if (check.refused) return check.refused
    const bytes = new Uint8Array(await c.req.arrayBuffer())
    pendingBytes.set(check.target, bytes)
    return c.body(null, 200, { etag: `"${createHash('md5').update(bytes).digest('hex')}"` })
  })
}
