import { getPriority, setPriority } from 'node:os'

/**
 * Yields the processor to the thread answering requests. On Linux a nice value is a thread's
 * own: set from inside a worker thread, it lowers only that thread. Elsewhere it would lower the
 * whole process, so it is left alone.
 */
export function lowerThreadPriority(niceIncrement = 10): void {
  if (process.platform !== 'linux') return
  try {
    // 0: this thread; a nice value above the thread's own, at most 19 (the lowest priority).
    setPriority(0, Math.min(19, getPriority(0) + niceIncrement))
  } catch {
    // A system that refuses it runs the thread at the usual priority.
  }
}

/**
 * WebAssembly memory lives outside the JS heap that resourceLimits caps: refuse growth past the
 * limit, so LibreDWG's allocation fails (it reports "out of memory") instead of the machine's.
 */
export function capWebAssemblyMemory(limitBytes: number): void {
  const grow = WebAssembly.Memory.prototype.grow
  WebAssembly.Memory.prototype.grow = function (this: WebAssembly.Memory, delta: number): number {
    if (this.buffer.byteLength + delta * 65536 > limitBytes) throw new RangeError('memory limit')
    return grow.call(this, delta)
  }
}
