/**
 * What a hostile signed-in user can send the real server: each attack sends its requests and
 * answers what came back (status and first words), or that nothing came within its time.
 */
import { readFile } from 'node:fs/promises'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { MAX_RULE_CELL_LENGTH } from '#contract/takeoff-rules.ts'
import { FIXTURES } from '../../server/testing/boq/fixtures.ts'
import type { TestClient } from '../../server/testing/client.ts'
import type { DrawingRef } from '../../server/testing/jobs/drawings.ts'
import { emptyRowsXlsx } from './empty-rows-xlsx.ts'

export interface AttackContext {
  url: string
  /** Who attacks. */
  mallory: TestClient
  /** Another person, who uploads a drawing of their own during the upload attack. */
  olive: TestClient
  /** A drawing of the seed, whose project the rules are Mallory's to change. */
  drawing: DrawingRef
  /** A finished job of that drawing, Mallory's (for the attacks that need one). */
  jobId?: string
}

export interface Attack {
  /** What is sent, as printed. */
  name: string
  needsJob?: boolean
  /** Work of the bench's own done before the clock starts (making a file), so it is not timed. */
  prepare?: () => void
  /** Sends it; each line is one answer (`422 The rules …`), in the order sent. */
  send(context: AttackContext): Promise<string[]>
}

/** How long an attack's request is waited for before it counts as not answered. */
export const ANSWER_CAP_MS = 120_000
/** How long a dribbling upload is kept going: past the slowest pace a server should allow. */
export const DRIBBLE_CAP_MS = 75_000
const DRIBBLE_EVERY_MS = 5_000

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/**
 * Stars then a `z` that no name ends with: a matcher that backtracks tries every split of the
 * text among the stars. As long as a cell may be (one more character is refused for its length).
 */
const STARS = `${'*'.repeat(MAX_RULE_CELL_LENGTH - 1)}z`

const EMPTY_ROWS = 10_000_000
const RULE_COLUMNS = ['match', 'block', 'code', 'description', 'unit', 'rate']
let emptyRowsBook: Uint8Array<ArrayBuffer> | undefined

const linework = { match: 'length', code: 'X.1', description: 'Linework', unit: 'm', rate: 1 }

export const ATTACKS: Attack[] = [
  {
    name: `PUT rules with a kind glob of ${STARS.length - 1} stars and z`,
    send: async ({ mallory, drawing }) => [
      await putRules(mallory, drawing, json({ rules: [{ ...linework, kind: STARS }] })),
    ],
  },
  {
    name: `price preview with the same glob in layer`,
    needsJob: true,
    send: async ({ mallory, jobId }) => [
      await said(
        mallory(`/api/boq/jobs/${jobId}/price`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ rules: [{ ...linework, layer: STARS }] }),
          signal: AbortSignal.timeout(ANSWER_CAP_MS),
        }),
      ),
    ],
  },
  {
    name: `PUT rules as an XLSX of column names, then ${EMPTY_ROWS.toLocaleString('en')} empty rows`,
    prepare: () => {
      emptyRowsBook ??= emptyRowsXlsx(EMPTY_ROWS, RULE_COLUMNS)
    },
    send: async ({ mallory, drawing }) => {
      if (!emptyRowsBook) throw new Error('The workbook was not made')
      return [await putRules(mallory, drawing, { type: XLSX, body: emptyRowsBook })]
    },
  },
  {
    name: 'PUT rules with a rate of 1e308',
    send: async ({ mallory, drawing }) => [
      await putRules(
        mallory,
        drawing,
        json({
          rules: [
            {
              match: 'count',
              block: '*',
              code: 'X.2',
              description: 'Blocks',
              unit: 'nr',
              rate: 1e308,
            },
          ],
        }),
      ),
    ],
  },
  {
    name: `4 uploads sending a byte every ${DRIBBLE_EVERY_MS / 1000} s (and, 2 s in, another person's drawing)`,
    send: async ({ url, mallory, olive, drawing }) => {
      const dribbles = Array.from({ length: 4 }, () => dribbleUpload(url, mallory, drawing))
      await new Promise((resolve) => setTimeout(resolve, 2_000))
      const theirs = await upload(olive, drawing)
      const mine = await Promise.all(dribbles)
      return [
        ...mine.map((answer, i) => `dribble ${i + 1}: ${answer}`),
        `Olive's upload: ${theirs}`,
      ]
    },
  },
]

const json = (body: unknown) => ({ type: 'application/json', body: JSON.stringify(body) })

/** PUT the project's rules over the version kept now. */
async function putRules(
  client: TestClient,
  drawing: DrawingRef,
  { type, body }: { type: string; body: BodyInit },
): Promise<string> {
  const path = `/api/boq/projects/${encodeURIComponent(drawing.projectId)}/rules`
  const { version } = await client.json<{ version: number }>(path)
  return said(
    client(path, {
      method: 'PUT',
      headers: { 'content-type': type, 'if-match': String(version) },
      body,
      signal: AbortSignal.timeout(ANSWER_CAP_MS),
    }),
  )
}

/** `200 {"version":1,…` or `400 Row 1: …`: the status and the answer's first words. */
async function said(answer: Promise<Response>): Promise<string> {
  try {
    const response = await answer
    return `${response.status} ${firstWords(await response.text())}`
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError')
      return `no answer within ${ANSWER_CAP_MS / 1000} s`
    throw error
  }
}

function firstWords(text: string): string {
  const words = text.replace(/\s+/g, ' ').trim().split(' ')
  const shown = words.slice(0, 14).join(' ')
  return shown.length > 110 ? `${shown.slice(0, 110)}…` : words.length > 14 ? `${shown} …` : shown
}

const BOUNDARY = 'boq-bench-attack'
const part = (name: string, value: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`

/** A drawing uploaded whole into the drawing's folder, as the app sends it. */
async function upload(client: TestClient, drawing: DrawingRef): Promise<string> {
  const bytes = await readFile(join(FIXTURES, 'sample_2018.dwg'))
  const form = new FormData()
  form.set('projectId', drawing.projectId)
  form.set('folderId', drawing.folderId)
  form.set('file', new Blob([bytes]), 'olive.dwg')
  return said(
    client('/api/local/upload', {
      method: 'POST',
      body: form,
      signal: AbortSignal.timeout(ANSWER_CAP_MS),
    }),
  )
}

/**
 * An upload whose body comes a byte every few seconds (node:http: fetch sends a streamed body
 * only as fast as it is read), until the server answers or DRIBBLE_CAP_MS has passed.
 */
function dribbleUpload(url: string, client: TestClient, drawing: DrawingRef): Promise<string> {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  const xsrf = decodeURIComponent(client.cookies.get('XSRF-TOKEN') ?? '')
  return new Promise((resolve) => {
    let ticker: NodeJS.Timeout | undefined
    let finished = false
    let answered = false
    const finish = (answer: string) => {
      if (finished) return
      finished = true
      clearInterval(ticker)
      clearTimeout(cap)
      resolve(answer)
    }
    const cap = setTimeout(() => {
      request.destroy()
      finish(`still open after ${DRIBBLE_CAP_MS / 1000} s (ended by the bench)`)
    }, DRIBBLE_CAP_MS)
    const request = httpRequest(
      new URL('/api/local/upload', url),
      {
        method: 'POST',
        agent: false,
        headers: {
          cookie,
          'x-xsrf-token': xsrf,
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        },
      },
      (response) => {
        answered = true
        clearInterval(ticker)
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => {
          text += chunk
        })
        response.on('end', () => finish(`${response.statusCode} ${firstWords(text)}`))
      },
    )
    // The server may end the connection once it has answered, or without an answer.
    request.on('error', () => {})
    request.on('close', () => {
      if (!answered) finish('the connection ended without an answer')
    })
    request.write(
      `${part('projectId', drawing.projectId)}${part('folderId', drawing.folderId)}--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="slow.dwg"\r\nContent-Type: application/octet-stream\r\n\r\nAC1032`,
    )
    ticker = setInterval(() => request.write('\0'), DRIBBLE_EVERY_MS)
  })
}
