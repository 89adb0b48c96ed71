import { Worker } from 'node:worker_threads'

/** What a thread is given when it starts (workerData). */
export type ThreadData = {
  /** Memory the thread may use: JS heap and WebAssembly memory each, in MB. */
  memoryLimitMb: number
  /** Make the drawing reader before saying ready: a thread started to read drawings. */
  warm: boolean
  /** The module whose default export runs the tasks that are not drawings (loaded on the first). */
  tasksUrl?: string
}

/** The one message the pool hears itself: the thread can take its next file at full speed. */
export type ReadyMessage = { type: 'ready' }

/** The thread ended with no word (terminated, or `process.exit` inside it). */
export class ThreadExited extends Error {}

/** One worker thread and what it is doing. */
export type Thread = {
  id: number
  worker: Worker
  /** It has (or is making) a drawing reader. */
  warm: boolean
  /** Settles when the thread's reader is in a fresh state for the next file. */
  ready: Promise<void>
  /** The reader is ready: a file sent now starts at once. */
  isReady: boolean
  /** The task in progress: what it hears, and how it ends when the thread dies. */
  onMessage: ((message: unknown) => void) | null
  onDeath: ((error: unknown) => void) | null
  dead: boolean
  /** Replace after the current task (crash, time budget, memory). */
  retire: boolean
  /** Ends an idle thread the pool need not keep. */
  idleTimer?: NodeJS.Timeout
  /** From now until it says 'ready' again, the thread is putting its reader back. */
  expectReady(): void
}

/**
 * Starts a thread of `url` with its memory capped (the JS heap by resourceLimits, WebAssembly
 * memory by the thread itself from `data.memoryLimitMb`). `onIdleDeath` hears of a death while no
 * task runs there.
 */
export function startThread(
  id: number,
  url: URL,
  data: ThreadData,
  onIdleDeath: (thread: Thread) => void,
): Thread {
  const worker = new Worker(url, {
    workerData: data,
    resourceLimits: { maxOldGenerationSizeMb: data.memoryLimitMb, maxYoungGenerationSizeMb: 32 },
    stdout: true,
    stderr: true,
  })
  let markReady = () => {}
  let failReady: (error: unknown) => void = () => {}
  const thread: Thread = {
    id,
    worker,
    warm: data.warm,
    ready: Promise.resolve(),
    isReady: false,
    onMessage: null,
    onDeath: null,
    dead: false,
    retire: false,
    expectReady() {
      thread.isReady = false
      thread.ready = new Promise<void>((resolve, reject) => {
        markReady = () => {
          thread.isReady = true
          resolve()
        }
        failReady = reject
      })
      thread.ready.catch(() => {})
    },
  }
  thread.expectReady()
  // LibreDWG's chatter is not the host's business.
  worker.stdout.resume()
  worker.stderr.resume()
  worker.on('message', (message: { type?: string }) => {
    if (message?.type === 'ready') markReady()
    else thread.onMessage?.(message)
  })
  const die = (error: unknown) => {
    if (thread.dead) return
    thread.dead = true
    failReady(error)
    if (thread.onDeath) thread.onDeath(error)
    else onIdleDeath(thread)
  }
  worker.on('error', die)
  worker.once('exit', () => die(new ThreadExited('The worker thread stopped without an answer.')))
  worker.unref() // an idle thread does not keep the process alive
  return thread
}
