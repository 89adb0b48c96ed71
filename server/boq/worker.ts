/**
 * One worker parses one file: it makes its LibreDWG instance as soon as it starts (ahead of the
 * file), says 'ready', reads the one file it is given, answers, and ends.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { BoqError } from './errors.ts'
import { extractBoq } from './extract.ts'
import { createReader } from './read/libredwg.ts'

export type WorkerJob = { bytes: Uint8Array; fileName: string }
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'progress'; fraction: number }
  | { type: 'result'; boq: ReturnType<typeof extractBoq> }
  | { type: 'error'; kind: string; message: string }

const port = parentPort
if (!port) throw new Error('worker.ts runs as a worker thread')

// WebAssembly memory lives outside the JS heap that resourceLimits caps: refuse growth past the
// limit, so LibreDWG's allocation fails (it reports "out of memory") instead of the machine's.
const limitBytes = Math.max(1, Number(workerData?.memoryLimitMb) || 2048) * 1024 * 1024
const grow = WebAssembly.Memory.prototype.grow
WebAssembly.Memory.prototype.grow = function (this: WebAssembly.Memory, delta: number): number {
  if (this.buffer.byteLength + delta * 65536 > limitBytes) throw new RangeError('memory limit')
  return grow.call(this, delta)
}

const reader = await createReader()
// The DXF reader is loaded ahead too, so a DXF does not pay for it either.
await import('./read/dxf-reader.ts')
port.postMessage({ type: 'ready' } satisfies WorkerMessage)

port.once('message', (job: WorkerJob) => {
  let answer: WorkerMessage
  try {
    const boq = extractBoq(job, reader, (fraction) =>
      port.postMessage({ type: 'progress', fraction } satisfies WorkerMessage),
    )
    answer = { type: 'result', boq }
  } catch (error) {
    answer =
      error instanceof BoqError
        ? { type: 'error', kind: error.kind, message: error.message }
        : {
            type: 'error',
            kind: 'corrupt',
            message: `Truncated or corrupt (the reader failed: ${error instanceof Error ? error.message : String(error)}).`,
          }
  }
  port.postMessage(answer)
  port.close()
})
