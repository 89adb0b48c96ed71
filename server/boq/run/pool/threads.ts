import { startThread, type Thread } from './thread.ts'

export type ThreadSetOptions = {
  workerUrl: URL
  memoryLimitMb: number
  tasksUrl?: URL
  /** The most threads alive at once (the sum of the lanes' threads). */
  max: number
  /** An idle thread the pool need not keep ends after this long. */
  idleTimeoutMs: number
}

export type PoolStats = {
  threadsStarted: number
  /** Threads ended and replaced after a crash, a time budget or too much memory. */
  threadsReplaced: number
}

/**
 * The pool's threads: started when needed, kept idle up to `keep` readers ready (the rest end
 * after a while idle), replaced when one is retired.
 */
export function threadSet(options: ThreadSetOptions) {
  const idle: Thread[] = []
  const busy = new Set<Thread>()
  const stats: PoolStats = { threadsStarted: 0, threadsReplaced: 0 }
  let keep = 0
  let closed = false

  const alive = () => idle.length + busy.size
  const warmAlive = () => [...idle, ...busy].filter((t) => t.warm).length

  const spawn = (warm: boolean): Thread => {
    stats.threadsStarted++
    return startThread(
      stats.threadsStarted,
      options.workerUrl,
      { memoryLimitMb: options.memoryLimitMb, warm, tasksUrl: options.tasksUrl?.href },
      // A thread that died while idle leaves the idle ones (and is replaced when kept).
      (thread) => {
        const at = idle.indexOf(thread)
        if (at < 0) return
        idle.splice(at, 1)
        if (!closed) {
          stats.threadsReplaced++
          fillKept()
        }
      },
    )
  }

  /** Warm threads started until `keep` are alive: their readers are ready before a file comes. */
  const fillKept = () => {
    for (let n = warmAlive(); !closed && n < keep && alive() < options.max; n++) {
      toIdle(spawn(true))
    }
  }

  const toIdle = (thread: Thread) => {
    idle.push(thread)
    if (thread.warm && warmAlive() <= keep) return
    thread.idleTimer = setTimeout(() => {
      const at = idle.indexOf(thread)
      if (at < 0) return
      idle.splice(at, 1)
      void thread.worker.terminate()
    }, options.idleTimeoutMs)
    thread.idleTimer.unref()
  }

  /** An idle thread that suits the lane (readers ready first for drawings), else a new one. */
  const take = (warm: boolean): Thread => {
    const order = warm
      ? [(t: Thread) => t.warm && t.isReady, (t: Thread) => t.warm, () => true]
      : [(t: Thread) => !t.warm, (t: Thread) => t.isReady, () => true]
    for (const suits of order) {
      const at = idle.findIndex((t) => !t.dead && suits(t))
      if (at >= 0) return claim(idle.splice(at, 1)[0] as Thread)
    }
    return claim(spawn(warm))
  }

  const claim = (thread: Thread): Thread => {
    clearTimeout(thread.idleTimer)
    busy.add(thread)
    return thread
  }

  /** The thread ended and, when the pool keeps readers ready, replaced at once. */
  const retire = (thread: Thread) => {
    busy.delete(thread)
    const at = idle.indexOf(thread)
    if (at >= 0) idle.splice(at, 1)
    void thread.worker.terminate()
    if (closed) return
    stats.threadsReplaced++
    fillKept()
  }

  return {
    take,
    retire,
    /** A thread whose task has ended: idle again, or retired when it must be. */
    release(thread: Thread) {
      busy.delete(thread)
      if (thread.retire || thread.dead) retire(thread)
      else if (closed) void thread.worker.terminate()
      else toIdle(thread)
    },
    keep(threads: number) {
      keep = Math.max(keep, Math.min(options.max, Math.floor(threads)))
      fillKept()
    },
    async ready() {
      await Promise.all(idle.map((thread) => thread.ready.catch(() => {})))
    },
    stats: (): PoolStats => ({ ...stats }),
    async close() {
      closed = true
      const all = [...idle.splice(0), ...busy]
      busy.clear()
      for (const thread of all) clearTimeout(thread.idleTimer)
      await Promise.all(all.map((thread) => thread.worker.terminate()))
    },
  }
}
