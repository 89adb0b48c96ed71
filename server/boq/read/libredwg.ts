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
