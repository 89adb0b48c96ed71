import { AppError } from '../../errors.ts'
import { parseStorageId } from './ids.ts'
import type { Upstream } from './upstream.ts'
import { badAnswer } from './upstream-errors.ts'

/** The OSS address of one object, from its storage id (the bucket is read, never assumed). */
function objectPath(storageId: string): string {
  const { bucketKey, objectKey } = parseStorageId(storageId)
  return `/oss/v2/buckets/${encodeURIComponent(bucketKey)}/objects/${encodeURIComponent(objectKey)}`
}

interface SignedDownload {
  url: string
  size: number | undefined
}

/** A signed download URL (one URL even while chunks are still being assembled). */
export async function signedDownload(
  upstream: Upstream,
  accessToken: string,
  storageId: string,
): Promise<SignedDownload> {
  const answer = await upstream.json<{ status?: unknown; url?: unknown; size?: unknown }>(
    upstream.url(`${objectPath(storageId)}/signeds3download`, {
      'public-resource-fallback': 'true',
      minutesExpiration: '10',
    }),
    { accessToken },
  )
  if (typeof answer.url !== 'string' || !/^https?:\/\//.test(answer.url)) {
    throw badAnswer('a download link')
  }
  return { url: answer.url, size: typeof answer.size === 'number' ? answer.size : undefined }
}

/** The object's bytes, straight from the signed URL (no Autodesk token goes to S3). */
export async function downloadObject(
  upstream: Upstream,
  accessToken: string,
  storageId: string,
): Promise<Uint8Array> {
  const signed = await signedDownload(upstream, accessToken, storageId)
  const response = await upstream.send(signed.url, { external: true, timeoutMs: 300_000 })
  const bytes = new Uint8Array(await response.arrayBuffer())
  if (signed.size !== undefined && bytes.byteLength !== signed.size) {
    throw new AppError(502, 'The drawing arrived incomplete from Autodesk. Please try again.')
  }
  return bytes
}

/** signeds3upload GET → PUT the bytes → signeds3upload POST (completes the object). */
export async function uploadObject(
  upstream: Upstream,
  accessToken: string,
  storageId: string,
  bytes: Uint8Array,
): Promise<void> {
  const base = objectPath(storageId)
  const signed = await upstream.json<{ uploadKey?: unknown; urls?: unknown }>(
    upstream.url(`${base}/signeds3upload`, { minutesExpiration: '10' }),
    { accessToken },
  )
  const target = Array.isArray(signed.urls) ? signed.urls[0] : undefined
  if (
    typeof signed.uploadKey !== 'string' ||
    typeof target !== 'string' ||
    !/^https?:\/\//.test(target)
  ) {
    throw badAnswer('an upload link')
  }
  await upstream.send(target, { method: 'PUT', body: bytes, external: true, timeoutMs: 300_000 })
  await upstream.send(upstream.url(`${base}/signeds3upload`), {
    method: 'POST',
    accessToken,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ uploadKey: signed.uploadKey, size: bytes.byteLength }),
  })
}
