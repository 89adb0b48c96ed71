import { AppError } from '../errors.ts'

export type JobPhase = 'download' | 'extract' | 'upload'

/** A failure whose message is already the sentence the person should read. */
export class JobFailure extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'JobFailure'
  }
}

/** A queued job whose sealed access token can no longer be opened (the key changed). */
export const SIGN_IN_AGAIN =
  'Your sign-in could not be used for this job any more. Sign in and extract again.'

export const SIGN_IN_EXPIRED =
  'Your sign-in expired before the job could finish. Sign in and extract again.'

/**
 * A job found running when the server starts: the process ended under it (a graceful stop puts
 * running jobs back in the queue). The drawing may be what ended it, so it is not run again.
 */
export const STOPPED_WHILE_EXTRACTING =
  'The server stopped while extracting this drawing, so it was not tried again: the drawing may be one that stops the reader. Try it again, or ask your administrator.'

/** A job whose worker process stopped (killed, machine lost) this many times is not tried again. */
export function workerStoppedMessage(times: number): string {
  return `The worker extracting this drawing stopped ${times} times, so it was not tried again: the drawing may be one that stops the reader. Try it again, or ask your administrator.`
}

export function tooLargeMessage(bytes: number, maxBytes: number): string {
  return `The drawing is ${megabytes(bytes)} MB; the largest drawing BOQ extracts is ${megabytes(maxBytes)} MB (BOQ_MAX_FILE_MB).`
}

function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024)
  return mb >= 10 ? mb.toFixed(0) : mb.toFixed(1)
}

/** The engine's BoqError (server/boq/model/boq-error.ts): its message is one readable sentence. */
export function isBoqError(error: unknown): error is Error & { kind: string } {
  return (
    error instanceof Error &&
    error.name === 'BoqError' &&
    typeof (error as { kind?: unknown }).kind === 'string'
  )
}

/**
 * The plain-text reason a failed job shows. Unknown errors get a generic sentence (and
 * `unexpected: true`, so the caller logs the details, which may not be for the user's eyes).
 */
export function describeFailure(
  error: unknown,
  phase: JobPhase,
  fileName: string,
): { message: string; unexpected: boolean } {
  if (error instanceof JobFailure) return { message: error.message, unexpected: false }
  if (isBoqError(error)) {
    // The engine's reason may be a fragment ("truncated or corrupt (…)"): say what it is about.
    const reason = error.message.trim().replace(/[.\s]*$/, '')
    return {
      message: `Could not extract the BOQ of ${fileName}: ${reason}.`,
      unexpected: error.kind === 'crashed',
    }
  }
  if (error instanceof AppError) {
    if (error.status === 401) return { message: SIGN_IN_EXPIRED, unexpected: false }
    const where =
      phase === 'upload'
        ? 'The BOQ could not be written to the folder'
        : 'The drawing could not be read from the cloud'
    return { message: `${where}: ${error.message}`, unexpected: false }
  }
  const what =
    phase === 'download'
      ? 'Reading the drawing from the cloud failed unexpectedly.'
      : phase === 'upload'
        ? 'Writing the BOQ to the folder failed unexpectedly.'
        : 'The extraction failed unexpectedly.'
  return { message: what, unexpected: true }
}
