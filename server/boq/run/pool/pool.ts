/**
 * One pool of worker threads for the CPU work kept off the thread answering requests: reading
 * drawings, and the tasks a server gives it (pricing, change bills, workbooks, tables). Each
 * thread has its memory capped and runs at a lower priority than the thread that made it; a
 * crash or a task past its budget ends only its thread, and another takes its place. Lanes share
 * the threads: each kind of work has threads of its own to count on, so that background drawing
 * reads never take the threads a person's interactive work needs.
 */
import type { Transferable } from 'node:worker_threads'
import { type Lane, type LaneOptions, makeLanes, turnEnded, turnIn } from './lanes.ts'
import type { Thread } from './thread.ts'
import { type PoolStats, threadSet } from './threads.ts'

export type { LaneOptions } from './lanes.ts'
export { ThreadExited } from './thread.ts'
export type { PoolStats } from './threads.ts'

export type WorkerPoolOptions = {
  lanes: Record<string, LaneOptions>
  /** The threads' module (default ../worker.ts: drawings, and tasks of `tasksUrl`). */
  workerUrl?: URL
  /** The module whose default export runs the tasks that are not drawings. */
  tasksUrl?: URL
  /** Memory each thread may use: JS heap and WebAssembly memory each (default 2048 MB). */
  memoryLimitMb?: number
  /** Threads kept started with their readers ready, idle or not (default 0). */
  keep?: number
  /** An idle thread beyond those kept ends after this long (default 30 s). */
  idleTimeoutMs?: number
  /** What a task fails with when the pool is closed under it. */
  closedError?: () => Error
}

/** What a running task can do about its thread. */
export type TaskControl<T> = {
  resolve(value: T): void
  reject(error: unknown): void
  /**
   * From now on the task has `ms` to end (replacing any budget before): past it, its thread is
   * ended (another takes its place) and the task fails with `error()`.
   */
  budget(ms: number, error: () => unknown): void
  /** The thread is replaced after this task (it holds too much memory). */
  retire(): void
  /** Which thread runs it, counted from 1. */
  thread: number
}

export type PoolTask<T> = {
  message: unknown
  /** Handed over to the thread, not copied. */
  transfer?: Transferable[]
  /** Right after the message is sent (a budget that runs from then). */
  onSent?(control: TaskControl<T>): void
  /** Every message the thread posts for the task, until the task resolves or rejects. */
  onMessage(message: unknown, control: TaskControl<T>): void
  /** The thread died under the task (a crash, out of memory): what the task fails with. */
  onDeath(error: unknown): unknown
  /** Ahead of the lane's waiting tasks (a task run again at once). */
  first?: boolean
  /** Aborted: a waiting task leaves the line, a running one ends its thread. */
  signal?: AbortSignal
}

export interface WorkerPool {
  /** The memory each thread may use, in MB (JS heap and WebAssembly memory each). */
  readonly memoryLimitMb: number
  run<T>(lane: string, task: PoolTask<T>): Promise<T>
  /** Keeps at least this many threads started with their readers ready (the engine's workers). */
  keep(threads: number): void
  /** Resolves when every idle thread has its reader ready for the next file. */
  ready(): Promise<void>
  stats(): PoolStats
  close(): Promise<void>
}

const WORKER_URL = new URL('../worker.ts', import.meta.url)

export function createWorkerPool(options: WorkerPoolOptions): WorkerPool {
  const lanes = makeLanes(options.lanes)
  const memoryLimitMb = Math.max(64, options.memoryLimitMb ?? 2048)
  const closedError = options.closedError ?? (() => new Error('The worker pool was closed.'))
  const threads = threadSet({
    workerUrl: options.workerUrl ?? WORKER_URL,
    tasksUrl: options.tasksUrl,
    memoryLimitMb,
    max: [...lanes.values()].reduce((sum, lane) => sum + lane.threads, 0),
    idleTimeoutMs: options.idleTimeoutMs ?? 30_000,
  })
  let closed = false
  let closing: Promise<void> | undefined
  const acquire = acquirer(threads, () => closed, closedError)

  const run = async <T>(name: string, task: PoolTask<T>): Promise<T> => {
    const lane = lanes.get(name)
    if (!lane) throw new Error(`No lane ${name} in this pool.`)
    if (closed) throw closedError()
    task.signal?.throwIfAborted()
    await turnIn(lane, task.first ?? false, task.signal)
    try {
      if (closed) {
        // Refused once the pool is closed, as the tasks running then end with their threads.
        await closing
        throw closedError()
      }
      const thread = await acquire(lane, task.signal)
      return await runIn(thread, lane, task)
    } finally {
      turnEnded(lane)
    }
  }

  const runIn = <T>(thread: Thread, lane: Lane, task: PoolTask<T>): Promise<T> => {
    thread.worker.ref() // a task in progress keeps the process alive
    // A drawing's thread answers, then puts its reader back and says 'ready' again.
    if (lane.warm) {
      thread.warm = true
      thread.expectReady()
    }
    return new Promise<T>((resolve, reject) => {
      const ended = settle(thread, task, resolve, reject)
      try {
        thread.worker.postMessage(task.message, task.transfer ?? [])
        task.onSent?.(ended)
      } catch (error) {
        ended.reject(error)
      }
    }).finally(() => {
      thread.worker.unref()
      threads.release(thread)
    })
  }

  if (options.keep) threads.keep(options.keep)
  return {
    memoryLimitMb,
    run,
    keep: (n) => threads.keep(n),
    ready: () => threads.ready(),
    stats: () => threads.stats(),
    close() {
      closed = true
      for (const lane of lanes.values()) {
        for (const waiting of lane.waiting.splice(0)) waiting.refuse(closedError())
      }
      // The tasks running end with their threads.
      closing ??= threads.close()
      return closing
    },
  }
}

/**
 * A thread for a task of the lane. A drawing waits for its thread's reader to be ready; a thread
 * that dies meanwhile is replaced once.
 */
function acquirer(
  threads: ReturnType<typeof threadSet>,
  isClosed: () => boolean,
  closedError: () => Error,
) {
  return async (lane: Lane, signal?: AbortSignal): Promise<Thread> => {
    let thread = threads.take(lane.warm)
    if (!lane.warm) return thread
    try {
      await untilReady(thread, signal)
    } catch (error) {
      if (signal?.aborted) {
        threads.release(thread)
        throw error
      }
      threads.retire(thread)
      // Closed while this task waited for its thread: no new thread outlives the pool.
      if (isClosed()) throw closedError()
      thread = threads.take(true)
      await untilReady(thread, signal).catch((e: unknown) => {
        threads.release(thread)
        throw e
      })
    }
    return thread
  }
}

async function untilReady(thread: Thread, signal?: AbortSignal): Promise<void> {
  if (!signal) {
    await thread.ready
  } else {
    signal.throwIfAborted()
    await new Promise<void>((resolve, reject) => {
      const stop = () => reject(signal.reason)
      signal.addEventListener('abort', stop, { once: true })
      thread.ready.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop))
    })
  }
  if (thread.dead) throw new Error('dead')
}

/** The task's end, once: its budget, the thread's death and an abort end it as well as its answer. */
function settle<T>(
  thread: Thread,
  task: PoolTask<T>,
  resolve: (value: T) => void,
  reject: (error: unknown) => void,
): TaskControl<T> {
  let settled = false
  let timer: NodeJS.Timeout | undefined
  const finish = (fn: () => void) => {
    if (settled) return
    settled = true
    clearTimeout(timer)
    thread.onMessage = null
    thread.onDeath = null
    task.signal?.removeEventListener('abort', aborted)
    fn()
  }
  const aborted = () =>
    finish(() => {
      thread.retire = true
      reject(task.signal?.reason)
    })
  const control: TaskControl<T> = {
    resolve: (value) => finish(() => resolve(value)),
    reject: (error) => finish(() => reject(error)),
    budget(ms, error) {
      clearTimeout(timer)
      timer = setTimeout(
        () =>
          finish(() => {
            thread.retire = true
            reject(error())
          }),
        ms,
      )
    },
    retire() {
      thread.retire = true
    },
    thread: thread.id,
  }
  task.signal?.addEventListener('abort', aborted, { once: true })
  thread.onMessage = (message) => task.onMessage(message, control)
  thread.onDeath = (error) =>
    finish(() => {
      thread.retire = true
      reject(task.onDeath(error))
    })
  return control
}
