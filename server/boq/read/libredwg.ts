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

/**
 * A new LibreDWG instance (its own WebAssembly memory), quiet: LibreDWG's warnings would
 * otherwise go to the host's stderr. Use it for one file only.
 */
export async function createReader(): Promise<LibreDwgEx> {
  const code = await compiledCode()
  const module = await createModule({
    locateFile: (name: string) => `${wasmDir}${name}`,
    print: () => {},
    printErr: () => {},
    // Emscripten's hook: instantiate our compiled code; it awaits the exports this resolves to.
    instantiateWasm: (
      imports: WebAssembly.Imports,
      receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => unknown,
    ) => WebAssembly.instantiate(code, imports).then((instance) => receive(instance, code)),
  })
  return LibreDwg.createByWasmInstance(module)
}

/** Memory compared at a time when looking for the end of what a fresh instance uses. */
const BLOCK = 1 << 20

/**
 * A reader whose memory can be put back as it was when the instance was made: every file then
 * starts from the state of a fresh instance (a used instance carried into a second file can
 * crash), without paying for a new one. `reset()` copies back the part of memory the fresh
 * instance had written (about 11 MB: static data, stack, the runtime's first allocations);
 * memory above it is the allocator's free space, which it never assumes to be zero.
 */
export type ResettableReader = { lib: LibreDwgEx; reset(): void; grown(): boolean }

export async function createResettableReader(): Promise<ResettableReader> {
  const lib = await createReader()
  const heap = lib as unknown as { wasmInstance: { HEAPU8: Uint8Array } }
  const memory = heap.wasmInstance.HEAPU8
  const size = memory.byteLength
  const zero = Buffer.alloc(BLOCK)
  // From the top down, the first block that is not all zeros ends what the instance has used.
  let end = size
  while (end > 0 && Buffer.from(memory.buffer, end - BLOCK, BLOCK).equals(zero)) end -= BLOCK
  const snapshot = memory.slice(0, end)
  return {
    lib,
    reset() {
      heap.wasmInstance.HEAPU8.set(snapshot)
    },
    grown: () => heap.wasmInstance.HEAPU8.byteLength !== size,
  }
}
