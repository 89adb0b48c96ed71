/**
 * The code of a rule that makes the test workers' pricing never end (stalling-bill-worker.ts,
 * boq/stalling-engine-worker.ts), as a pricing that never finishes would.
 */
export const STALL_CODE = 'STALL-FOREVER'

/** The code of a rule whose pricing ends its thread at once (stalling-bill-worker.ts), as a crash would. */
export const CRASH_CODE = 'CRASH-THREAD'

/** Blocks the calling thread for good, without spinning a core: only ending the thread ends it. */
export function stallForever(): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)
}
