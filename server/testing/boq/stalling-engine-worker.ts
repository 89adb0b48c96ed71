/**
 * The engine's worker for tests: the real one, except that pricing a bill whose rules hold a row
 * of code STALL_CODE never ends (the worker is held from the moment it says pricing begins).
 */
import { parentPort, type Transferable } from 'node:worker_threads'
import type { PoolMessage, WorkerJob, WorkerMessage } from '../../boq/run/worker.ts'
import { STALL_CODE, stallForever } from '../stall-code.ts'

const port = parentPort
if (!port) throw new Error('stalling-engine-worker.ts runs as a worker thread')

// Heard before the real worker hears it: the job now being read.
let current: WorkerJob | undefined
port.on('message', (message: PoolMessage) => {
  current = message.kind === 'drawing' ? message.job : undefined
})
const post = port.postMessage.bind(port)
port.postMessage = (message: WorkerMessage, transfer?: readonly Transferable[]) => {
  post(message, transfer)
  const stalls = current?.pricing?.rules.some((rule) => rule.code === STALL_CODE)
  if (message.type === 'pricing' && stalls) stallForever()
}

await import('../../boq/run/worker.ts')
