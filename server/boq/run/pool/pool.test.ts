import { readdirSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { type PoolTestTask, threadStat } from '../../../testing/boq/pool-tasks.ts'
import { createWorkerPool, type PoolTask, type WorkerPool } from './pool.ts'
import type { TaskMessage } from './task-worker.ts'

const TASKS_URL = new URL('../../../testing/boq/pool-tasks.ts', import.meta.url)

/** A task of pool-tasks.ts, answered when its thread answers (no budget unless given one). */
function task<T>(what: PoolTestTask, budgetMs?: number): PoolTask<T> {
  return {
    message: { kind: 'task', task: what },
    onMessage(raw, control) {
      const message = raw as TaskMessage
      if (message.type === 'started' && budgetMs) {
        control.budget(budgetMs, () => new Error('over budget'))
      } else if (message.type === 'answer') control.resolve(message.value as T)
      else if (message.type === 'failed') control.reject(message.error)
    },
    onDeath: (error) => error,
  }
}

let pool: WorkerPool | undefined
afterEach(async () => {
  await pool?.close()
  pool = undefined
})

describe('the worker pool', () => {
  it("runs its threads at a lower priority than the thread that made them: each thread's own nice value", async () => {
    pool = createWorkerPool({ lanes: { a: { threads: 2 } }, tasksUrl: TASKS_URL })
    const [one, two] = await Promise.all([
      pool.run<{ tid: number; nice: number }>('a', task({ do: 'whoami' })),
      pool
        .run<{ tid: number; nice: number }>('a', task({ do: 'wait', ms: 200 }))
        .then(() => pool?.run<{ tid: number; nice: number }>('a', task({ do: 'whoami' }))),
    ])
    const own = threadStat('/proc/thread-self/stat')
    const lowered = Math.min(19, own.nice + 10)
    expect(one?.nice).toBe(lowered)
    expect(two?.nice).toBe(lowered)
    // Read from outside too: the threads are this process's, and the one making them is not lowered.
    const tasks = new Map(
      readdirSync('/proc/self/task').map((tid) => [
        Number(tid),
        threadStat(`/proc/self/task/${tid}/stat`).nice,
      ]),
    )
    expect(tasks.get(one?.tid ?? -1)).toBe(lowered)
    expect(tasks.get(own.tid)).toBe(own.nice)
    expect([...tasks.values()].filter((nice) => nice === lowered).length).toBeGreaterThanOrEqual(
      new Set([one?.tid, two?.tid]).size,
    )
    expect(threadStat('/proc/thread-self/stat').nice).toBe(own.nice)
  })

  it('gives each lane its own threads: a lane full of long tasks never delays another', async () => {
    pool = createWorkerPool({
      lanes: { background: { threads: 1 }, interactive: { threads: 1 } },
      tasksUrl: TASKS_URL,
    })
    const settled: string[] = []
    const long = [1, 2, 3].map((n) =>
      pool?.run('background', task({ do: 'wait', ms: 1_500 })).then(() => settled.push(`bg${n}`)),
    )
    const started = performance.now()
    await pool.run('interactive', task({ do: 'wait', ms: 10 }))
    settled.push('interactive')
    // Well under one long task: the interactive one did not wait for a background thread.
    expect(performance.now() - started).toBeLessThan(1_400)
    await Promise.all(long)
    expect(settled).toEqual(['interactive', 'bg1', 'bg2', 'bg3'])
    // One thread each: the background lane never took a second.
    expect(pool.stats().threadsStarted).toBe(2)
  })

  it('refuses past its bounded wait, with the lane’s own error', async () => {
    pool = createWorkerPool({
      lanes: { a: { threads: 1, maxWaiting: 1, busy: () => new Error('busy now') } },
      tasksUrl: TASKS_URL,
    })
    const running = pool.run('a', task({ do: 'wait', ms: 300 }))
    const waiting = pool.run('a', task({ do: 'wait', ms: 10 }))
    await expect(pool.run('a', task({ do: 'wait', ms: 10 }))).rejects.toThrow('busy now')
    await expect(Promise.all([running, waiting])).resolves.toEqual(['waited', 'waited'])
  })

  it('a crash ends only its thread: the task fails, the other lane’s task and the next one are answered', async () => {
    pool = createWorkerPool({
      lanes: { a: { threads: 1 }, b: { threads: 1 } },
      tasksUrl: TASKS_URL,
    })
    const settled: string[] = []
    const other = pool.run('b', task({ do: 'wait', ms: 2_000 })).then((answer) => {
      settled.push('other')
      return answer
    })
    const crashed = await pool.run('a', task({ do: 'crash' })).catch((e: unknown) => e)
    expect(crashed).toBeInstanceOf(Error)
    // The next task of the lane has a new thread, while the other lane's still runs.
    expect(await pool.run('a', task({ do: 'wait', ms: 1 }))).toBe('waited')
    settled.push('next')
    expect(await other).toBe('waited')
    expect(settled).toEqual(['next', 'other'])
    expect(pool.stats()).toEqual({ threadsStarted: 3, threadsReplaced: 1 })
  })

  it('a task past its budget ends its thread; a failure that is not a crash keeps it', async () => {
    pool = createWorkerPool({ lanes: { a: { threads: 1 } }, tasksUrl: TASKS_URL })
    await expect(pool.run('a', task({ do: 'throw', message: 'no such bill' }))).rejects.toThrow(
      'no such bill',
    )
    expect(pool.stats()).toEqual({ threadsStarted: 1, threadsReplaced: 0 })
    await expect(pool.run('a', task({ do: 'stall' }, 300))).rejects.toThrow('over budget')
    expect(await pool.run('a', task({ do: 'wait', ms: 1 }))).toBe('waited')
    expect(pool.stats()).toEqual({ threadsStarted: 2, threadsReplaced: 1 })
  })

  it('once closed, refuses tasks with its closed error', async () => {
    pool = createWorkerPool({
      lanes: { a: { threads: 1 } },
      tasksUrl: TASKS_URL,
      closedError: () => new Error('closed for the night'),
    })
    await pool.close()
    await expect(pool.run('a', task({ do: 'wait', ms: 1 }))).rejects.toThrow('closed for the night')
    expect(pool.stats().threadsStarted).toBe(0)
  })
})
