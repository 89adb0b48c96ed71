import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import busboy from 'busboy'
import { AppError } from '../../errors.ts'
import { type UploadPace, watchPace } from './upload-pace.ts'

/** The fields the upload knows are three; a few more are let through unread. */
export const MAX_FIELDS = 8
/** Bytes of one field's value: far more than an id takes. */
const MAX_FIELD_BYTES = 16 * 1024
/** Room in the body for the fields and part headers around the file. */
const FORM_ALLOWANCE = 64 * 1024
/** Header lines of one part (Content-Disposition, Content-Type, and a few more). */
const MAX_PART_HEADERS = 16

/** What the form holds, for the sentences that refuse it. */
export const FORM_SHAPE = 'fields projectId, folderId, optional itemId, and file'

/** The form's file part, once it begins, with the fields sent before it. */
export interface FilePart {
  fields: ReadonlyMap<string, string>
  /** The name the sender gave the file, as sent (a path is kept as a path, to be refused). */
  fileName: string
  /** The file's bytes as they arrive: read it to its end, or `abort` the form. */
  bytes: Readable
}

export interface UploadForm {
  /** The file part once it begins; rejects when the form is refused before it or has none. */
  file: Promise<FilePart>
  /**
   * Resolves once the whole form has been read (the file's bytes consumed), rejects with the
   * reason it is refused: what follows the file counts too (a second file, a late field).
   */
  done: Promise<void>
  /** Stops reading the body, and fails the file's bytes with `error`. */
  abort(error: Error): void
  /** Why the form was refused, once it was. */
  refusal(): Error | undefined
}

/**
 * Reads a multipart/form-data upload as it arrives (busboy), so that the drawing goes to disk as
 * it comes and is never whole in memory: its text fields, which must come before the file, then
 * one file. Refused as soon as it is seen: a body announced or sent larger than the drawing limit
 * and the form's allowance, a file larger than `maxFileBytes` (413 from `tooLarge`), more than
 * MAX_FIELDS fields or a part too many (413), a second file, a field after the file, a field value
 * past MAX_FIELD_BYTES, a body that is not a whole form (400), a body that arrives slower than
 * `pace` (408). The body is not read further once the form is refused.
 */
export function readUploadForm(
  request: Request,
  maxFileBytes: number,
  tooLarge: () => AppError,
  pace: UploadPace,
): UploadForm {
  const type = request.headers.get('content-type') ?? ''
  if (!/^multipart\/form-data\s*;\s*boundary=/i.test(type) || !request.body) {
    throw new AppError(400, `Send the drawing as multipart/form-data (${FORM_SHAPE}).`)
  }
  const maxBodyBytes = maxFileBytes + FORM_ALLOWANCE
  const announced = request.headers.get('content-length')
  if (announced !== null && Number(announced) > maxBodyBytes) throw tooLarge()

  let parser: busboy.Busboy
  try {
    parser = busboy({
      headers: { 'content-type': type },
      limits: {
        fields: MAX_FIELDS,
        fieldSize: MAX_FIELD_BYTES,
        files: 1,
        // busboy counts the boundary before the first part too: this lets MAX_FIELDS fields and
        // the file through, and trips on one part more.
        parts: MAX_FIELDS + 2,
        // busboy says `limit` once a file reaches this size: one byte more than a drawing may have.
        fileSize: maxFileBytes + 1,
        headerPairs: MAX_PART_HEADERS,
      },
      // Names as sent, in UTF-8, paths kept: the name checks refuse a path rather than a part of it.
      preservePath: true,
      defCharset: 'utf8',
      defParamCharset: 'utf8',
    })
  } catch {
    throw new AppError(400, `Send the drawing as multipart/form-data (${FORM_SHAPE}).`)
  }

  const fields = new Map<string, string>()
  let bytes: Readable | undefined
  let refused: Error | undefined
  let fileFound: (part: FilePart) => void = () => {}
  let fileRefused: (error: Error) => void = () => {}
  const file = new Promise<FilePart>((resolve, reject) => {
    fileFound = resolve
    fileRefused = reject
  })

  const source = Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>)
  // A sender that dribbles its bytes would hold an upload place for as long as it likes.
  const paced = watchPace(pace, (tooSlow) => refuse(tooSlow))
  let seen = 0
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.byteLength
      paced.arrived(chunk.byteLength)
      callback(seen > maxBodyBytes ? tooLarge() : null, chunk)
    },
  })

  /**
   * The first reason wins; everything stops reading. The streams are ended on the next tick:
   * busboy goes on with its own state after the event that refuses, and must not find it gone.
   */
  function refuse(error: Error): void {
    if (refused) return
    refused = error
    paced.stop()
    fileRefused(error)
    process.nextTick(() => {
      bytes?.destroy(error)
      parser.destroy(error)
    })
  }

  parser.on('field', (escapedName, value, info) => {
    const name = unescapeFormName(escapedName)
    if (bytes) return refuse(new AppError(400, `Send ${name} before the file (${FORM_SHAPE}).`))
    if (info.valueTruncated) return refuse(new AppError(400, `${name} is too long.`))
    if (!fields.has(name)) fields.set(name, value)
  })
  parser.on('file', (escapedName, stream, info) => {
    const name = unescapeFormName(escapedName)
    if (name !== 'file') {
      stream.resume()
      return refuse(
        new AppError(
          400,
          fields.has(name) || ['projectId', 'folderId', 'itemId'].includes(name)
            ? `${name} must be text, not a file.`
            : `Send one drawing as the form field "file" (${FORM_SHAPE}).`,
        ),
      )
    }
    bytes = stream
    // Its failure reaches whoever reads it; until then (the checks before it is read) it must not
    // be an error nobody listens to, which would end the process.
    stream.on('error', () => undefined)
    stream.on('limit', () => refuse(tooLarge()))
    fileFound({ fields, fileName: unescapeFormName(info.filename ?? ''), bytes: stream })
  })
  parser.on('filesLimit', () =>
    refuse(new AppError(400, `Send one drawing as the form field "file" (${FORM_SHAPE}).`)),
  )
  const tooManyParts = () =>
    refuse(
      new AppError(
        413,
        `The upload form has too many parts: send at most ${MAX_FIELDS} fields and one file (${FORM_SHAPE}).`,
      ),
    )
  parser.on('fieldsLimit', tooManyParts)
  parser.on('partsLimit', tooManyParts)

  const done = pipeline(source, counted, parser).then(
    () => {
      paced.stop()
      if (refused) throw refused
      if (!bytes) {
        const none = new AppError(400, `Send one drawing as the form field "file" (${FORM_SHAPE}).`)
        fileRefused(none)
        throw none
      }
    },
    (error: unknown) => {
      paced.stop()
      const reason =
        refused ??
        (error instanceof AppError
          ? error
          : /part header/i.test((error as Error | undefined)?.message ?? '')
            ? new AppError(
                400,
                'A part of the upload form has a header that cannot be read (a control character in the file name, for instance).',
              )
            : new AppError(400, 'The upload is not a complete multipart/form-data body.'))
      refuse(reason)
      throw reason
    },
  )
  // Awaited by the caller once the file is read; a refusal before that is answered through `file`.
  done.catch(() => undefined)
  // Not awaited when the caller fails first (a folder not found): its refusal is then no news.
  file.catch(() => undefined)

  return { file, done, abort: refuse, refusal: () => refused }
}

/**
 * Reads an upload's body to its end and drops it, so that an answer given without it (503) reaches
 * the client: one cut off while it is still sending may never read the answer. A body past what
 * an upload may be, or arriving slower than `pace`, is not read further (the connection is closed
 * after the answer instead).
 */
export async function discardBody(
  request: Request,
  maxFileBytes: number,
  pace: UploadPace,
): Promise<void> {
  const reader = request.body?.getReader()
  if (!reader) return
  const paced = watchPace(pace, () => void reader.cancel().catch(() => undefined))
  let seen = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      seen += value.byteLength
      paced.arrived(value.byteLength)
      if (seen > maxFileBytes + FORM_ALLOWANCE) {
        await reader.cancel()
        return
      }
    }
  } catch {
    // The client went away: nobody is left to answer.
  } finally {
    paced.stop()
  }
}

/**
 * A name or file name as the sender meant it: browsers (the HTML standard) and Node's FormData
 * write `"`, CR and LF in them as %22, %0D and %0A, and Node's own form parser reads them back so.
 */
function unescapeFormName(name: string): string {
  return name.replace(/%0A/gi, '\n').replace(/%0D/gi, '\r').replace(/%22/g, '"')
}
