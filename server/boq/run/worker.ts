/**
 * A thread of the worker pool: it reads drawings (drawing-worker.ts) and runs the tasks of the
 * module the pool names (pool/task-worker.ts), one at a time, at a lower priority than the thread
 * answering requests and within its memory limit. A thread started to read drawings makes its
 * reader before it says it is ready; another makes one on its first drawing.
 */
import { parentPort, workerData } from 'node:worker_threads'
import type { WorkerJob } from './drawing-worker.ts'
import { runTask } from './pool/task-worker.ts'
import type { ThreadData } from './pool/thread.ts'
import { capWebAssemblyMemory, lowerThreadPriority } from './pool/thread-limits.ts'

export type { WorkerFileInfo, WorkerJob, WorkerMessage } from './drawing-worker.ts'

/** What the pool sends a thread: a drawing to read, or a task for the pool's task module. */
export type PoolMessage = { kind: 'drawing'; job: WorkerJob } | { kind: 'task'; task: unknown }

const port = parentPort
if (!port) throw new Error('worker.ts runs as a worker thread')
const data = (workerData ?? {}) as Partial<ThreadData>

lowerThreadPriority()
capWebAssemblyMemory(Math.max(1, Number(data.memoryLimitMb) || 2048) * 1024 * 1024)

// Loaded by the first drawing: a thread that only runs tasks does without the reader's modules.
let drawings: Promise<typeof import('./drawing-worker.ts')> | undefined
const drawingWorker = () => {
  drawings ??= import('./drawing-worker.ts')
  return drawings
}

port.on('message', (message: PoolMessage) => {
  if (message.kind === 'drawing') {
    void drawingWorker().then((worker) => worker.readDrawingJob(port, message.job))
  } else void runTask(port, data.tasksUrl, message.task)
})

if (data.warm) await (await drawingWorker()).prepareReader()
port.postMessage({ type: 'ready' })
