import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { createModule, LibreDwg, type LibreDwgEx } from '@mlightcad/libredwg-web'

const wasmDir = fileURLToPath(new URL('../wasm/', import.meta.resolve('@mlightcad/libredwg-web')))

// The compiled code (no state: no memory, no globals) is made once per thread; every reader is a
// new instance of it, with its own memory. Saves reading and hashing the 9.5 MB binary each time.
let compiled: Promise<WebAssembly.Module> | null = null
function compiledCode(): Promise<WebAssembly.Module> {
  compiled ??= readFile(`${wasmDir}libredwg-web.wasm`).then((binary) => WebAssembly.compile(binary))
  compiled.catch(() => {
    compiled = null // a failed read or compile is tried again next time
  })
  return compiled
}

/** The few of the module's own exports a reset needs (called raw, not through Emscripten's wrappers). */
type Exports = {
  malloc(size: number): number
  free(pointer: number): void
  emscripten_stack_get_current(): number
  _emscripten_stack_restore(pointer: number): void
}

async function instantiate(): Promise<{ lib: LibreDwgEx; exports: Exports }> {
  const code = await compiledCode()
  let exports: Exports | undefined
  const module = await createModule({
    locateFile: (name: string) => `${wasmDir}${name}`,
    print: () => {},
    printErr: () => {},
    // Emscripten's hook: instantiate our compiled code; it awaits the exports this resolves to.
    instantiateWasm: (
      imports: WebAssembly.Imports,
      receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => unknown,
    ) =>
      WebAssembly.instantiate(code, imports).then((instance) => {
        exports = instance.exports as unknown as Exports
        return receive(instance, code)
      }),
  })
  if (!exports) throw new Error('LibreDWG was instantiated without its exports')
  return { lib: LibreDwg.createByWasmInstance(module), exports }
}

/**
 * A new LibreDWG instance (its own WebAssembly memory), quiet: LibreDWG's warnings would
 * otherwise go to the host's stderr. Use it for one file only.
 */
export async function createReader(): Promise<LibreDwgEx> {
  return (await instantiate()).lib
}

/** Memory compared at a time when looking for the end of what a fresh instance uses. */
const BLOCK = 1 << 20

/**
 * Where the data a fresh instance has written ends: the same for every instance of the compiled
 * code, so the 1 GB look (a few hundred ms) is made once per thread.
 */
let writtenEnd: number | null = null

function endOfWritten(memory: Uint8Array): number {
  if (writtenEnd !== null) return writtenEnd
  const zero = Buffer.alloc(BLOCK)
  // From the top down, the first block that is not all zeros ends what the instance has written.
  let end = memory.byteLength
  while (end > 0 && Buffer.from(memory.buffer, end - BLOCK, BLOCK).equals(zero)) end -= BLOCK
  writtenEnd = end
  return end
}

/**
 * A reader whose state can be put back as it was when the instance was made: every file then
 * starts from the state of a fresh instance (a used instance carried into a second file can
 * crash), without paying for a new one. `reset()` copies back the memory up to the top of what the
 * allocator had handed out (about 12 MB: static data, stack, the runtime's first allocations,
 * zeros in them included), sets the stack pointer back (a trap inside LibreDWG leaves it lowered)
 * and the text decoder; memory above is the allocator's free space, never assumed to be zero.
 */
export type ResettableReader = { lib: LibreDwgEx; reset(): void; grown(): boolean }

export async function createResettableReader(): Promise<ResettableReader> {
  const { lib, exports } = await instantiate()
  const heap = lib as unknown as { wasmInstance: { HEAPU8: Uint8Array }; decoder?: TextDecoder }
  const memory = heap.wasmInstance.HEAPU8
  const size = memory.byteLength
  // A large request is served from the start of the allocator's free top: above every block in use.
  const top = exports.malloc(BLOCK)
  exports.free(top)
  const end = Math.min(size, Math.max(endOfWritten(memory), top + 64))
  const snapshot = memory.slice(0, end)
  const stack = exports.emscripten_stack_get_current()
  const decoder = heap.decoder
  return {
    lib,
    reset() {
      heap.wasmInstance.HEAPU8.set(snapshot)
      exports._emscripten_stack_restore(stack)
      heap.decoder = decoder
    },
    grown: () => heap.wasmInstance.HEAPU8.byteLength !== size,
  }
}
