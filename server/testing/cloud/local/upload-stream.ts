/**
 * Uploads into the local cloud with a body the test writes as it likes (chunk by chunk, slowly,
 * never ending): node:http, since fetch keeps every chunk of a streamed body it sent while the
 * request lasts, and sends a body only as fast as its stream is read.
 */
import { once } from 'node:events'
import { readdir } from 'node:fs/promises'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { HISTORY_DIR } from '../../../cloud/local/version-store.ts'
import type { TestClient } from '../../client.ts'

export const UPLOAD = '/api/local/upload'
export const BOUNDARY = 'boq-transfers-test'
const text = new TextEncoder()

/** A text field of the form. */
export const field = (name: string, value: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
/** The start of the file part, its bytes to follow. */
export const fileHead = (name: string) =>
  text.encode(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  )
/** The end of the file part and of the form. */
export const closing = text.encode(`\r\n--${BOUNDARY}--\r\n`)
/** The fields that name the folder the drawing goes to. */
export const targetFields = (projectId: string, folderId: string) =>
  text.encode(field('projectId', projectId) + field('folderId', folderId))

export interface Answer {
  status: number
  retryAfter: string | undefined
  text: string
}

/**
 * POST /api/local/upload as `client`, of a body streamed from `parts` (sent without a length, as
 * it comes, with back-pressure). Sending stops once the server has answered; the answer is read
 * whole.
 */
export function postStream(
  serverUrl: string,
  client: TestClient,
  parts: AsyncIterable<Uint8Array>,
  signal?: AbortSignal,
): Promise<Answer> {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  const xsrf = decodeURIComponent(client.cookies.get('XSRF-TOKEN') ?? '')
  return new Promise((resolve, reject) => {
    let answered = false
    const request = httpRequest(
      new URL(UPLOAD, serverUrl),
      {
        method: 'POST',
        headers: {
          cookie,
          'x-xsrf-token': xsrf,
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        },
        signal,
      },
      (response) => {
        answered = true
        let body = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => {
          body += chunk
        })
        response.on('end', () => {
          const retryAfter = response.headers['retry-after']
          resolve({ status: response.statusCode ?? 0, retryAfter, text: body })
        })
      },
    )
    request.on('error', reject)
    void (async () => {
      try {
        for await (const chunk of parts) {
          if (answered) return
          if (!request.write(chunk)) await once(request, 'drain')
        }
        request.end()
      } catch (error) {
        request.destroy(error as Error)
      }
    })()
  })
}

/**
 * The incoming files of uploads being received, in every item's history folder of `folderAbs`;
 * with `marks`, the marks beside them too (the lock directories that say they are being filled).
 */
export async function incomingFiles(folderAbs: string, marks = false): Promise<string[]> {
  const history = join(folderAbs, HISTORY_DIR)
  const items = await readdir(history).catch(() => [] as string[])
  const found: string[] = []
  const name = marks ? /^\.incoming-[0-9a-f]{12}(\.lock)?$/ : /^\.incoming-[0-9a-f]{12}$/
  for (const item of items) {
    const names = await readdir(join(history, item)).catch(() => [] as string[])
    found.push(...names.filter((n) => name.test(n)))
  }
  return found
}
