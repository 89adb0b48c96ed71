import { AppError } from '../../errors.ts'

/** The slowest an upload's body may arrive: at least `minBytes` in every `windowMs` of it. */
export interface UploadPace {
  minBytes: number
  windowMs: number
}

/**
 * 64 KB in 30 s (about 2 KB/s): far below any working connection, and a sender that dribbles
 * bytes to hold an upload place loses it within half a minute, not at Node's request timeout.
 */
export const UPLOAD_PACE: UploadPace = { minBytes: 64 * 1024, windowMs: 30_000 }

export interface PaceWatch {
  /** Counts bytes of the body as they arrive. */
  arrived(bytes: number): void
  /** Stops watching (the body has ended, or was refused for another reason). */
  stop(): void
}

/**
 * Watches a body as it arrives, window after window from now; calls `tooSlow` once, with a 408
 * saying why, when a window ends with fewer than `pace.minBytes` of it. The window is judged a
 * turn of the event loop after its timer, so that bytes already waiting on the socket (a busy
 * moment of the server's, not the sender's) are counted first.
 */
export function watchPace(pace: UploadPace, tooSlow: (error: AppError) => void): PaceWatch {
  let inWindow = 0
  let stopped = false
  const timer = setInterval(() => {
    setImmediate(() => {
      if (stopped) return
      if (inWindow >= pace.minBytes) {
        inWindow = 0
        return
      }
      stop()
      tooSlow(tooSlowError(pace))
    })
  }, pace.windowMs)
  // A body still watched never keeps the process alive by itself.
  timer.unref()
  function stop() {
    stopped = true
    clearInterval(timer)
  }
  return {
    arrived(bytes) {
      inWindow += bytes
    },
    stop,
  }
}

function tooSlowError(pace: UploadPace): AppError {
  return new AppError(
    408,
    `The upload was too slow: less than ${bytesText(pace.minBytes)} arrived in ${secondsText(pace.windowMs)}, and it was stopped. Send the drawing again over a faster connection.`,
  )
}

function bytesText(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024} KB` : `${bytes} bytes`
}

function secondsText(ms: number): string {
  const seconds = ms / 1000
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`
}
