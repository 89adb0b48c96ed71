import { fileURLToPath } from 'node:url'
import { createModule, LibreDwg, type LibreDwgEx } from '@mlightcad/libredwg-web'

const wasmDir = fileURLToPath(new URL('../wasm/', import.meta.resolve('@mlightcad/libredwg-web')))

/**
 * A new LibreDWG instance (its own WebAssembly memory), quiet: LibreDWG's warnings would
 * otherwise go to the host's stderr. Use it for one file only.
 */
export async function createReader(): Promise<LibreDwgEx> {
  const module = await createModule({
    locateFile: (name: string) => `${wasmDir}${name}`,
    print: () => {},
    printErr: () => {},
  })
  return LibreDwg.createByWasmInstance(module)
}
