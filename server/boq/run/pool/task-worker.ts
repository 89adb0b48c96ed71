/**
 * The thread's side of a task that is not a drawing: the module named by the pool (its default
 * export) is loaded on the first task, then runs each task given. The thread says when it starts
 * one (its budget runs from then), then answers it, or says why it failed.
 */
import type { MessagePort } from 'node:worker_threads'

/** What a task module's default export gives: the answer, and the buffers handed back with it. */
export type TaskAnswer = { value: unknown; transfer?: ArrayBuffer[] }

export type TaskModule = { default: (task: never) => Promise<TaskAnswer> }

/** What the thread says of a task. */
export type TaskMessage =
  | { type: 'started' }
  | { type: 'answer'; value: unknown }
  | { type: 'failed'; error: unknown }

let loaded: Promise<TaskModule> | undefined

export async function runTask(port: MessagePort, tasksUrl: string | undefined, task: unknown) {
  try {
    if (!tasksUrl) throw new Error('This pool was given no module for its tasks.')
    loaded ??= import(tasksUrl) as Promise<TaskModule>
    const run = (await loaded).default as (task: unknown) => Promise<TaskAnswer>
    port.postMessage({ type: 'started' } satisfies TaskMessage)
    const { value, transfer } = await run(task)
    try {
      port.postMessage({ type: 'answer', value } satisfies TaskMessage, transfer ?? [])
    } catch {
      // A buffer that cannot be handed over (one of Node's shared pool) is copied instead.
      port.postMessage({ type: 'answer', value } satisfies TaskMessage)
    }
  } catch (error) {
    port.postMessage({ type: 'failed', error: cloneable(error) } satisfies TaskMessage)
  }
}

/** An error as the other thread can receive it: an Error is cloned with its message and stack. */
function cloneable(error: unknown): unknown {
  try {
    structuredClone(error)
    return error
  } catch {
    return new Error(error instanceof Error ? error.message : String(error))
  }
}
