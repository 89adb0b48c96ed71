import type { LibreDwgEx } from '@mlightcad/libredwg-web'
import type { Drawing } from '../../boq/model/drawing.ts'
import { detect } from '../../boq/read/detect.ts'
import type { ReadOptions } from '../../boq/read/drawing-builder.ts'
import { readDwg } from '../../boq/read/dwg-reader.ts'
import { createReader } from '../../boq/read/libredwg.ts'
import { fixture } from './fixtures.ts'

/** The DWG version a file declares (empty for anything else), as the reader is given it. */
function dwgVersionOf(bytes: Uint8Array): string {
  const detected = detect(bytes)
  return detected.format === 'dwg' ? detected.version : ''
}

/**
 * A DWG fixture read as the worker reads it, with the reader's own checks on; with its picture
 * for the drawing view when `picture`.
 */
export async function readDwgFixture(name: string, options: ReadOptions = {}): Promise<Drawing> {
  const bytes = fixture(name)
  return readDwg(await createReader(), bytes, dwgVersionOf(bytes), { verify: true, ...options })
}

/** A fixture read by LibreDWG and left in memory, to change before the walk. */
export async function loadedDwgFixture(
  name: string,
): Promise<{ lib: LibreDwgEx; data: number; version: string }> {
  const lib = await createReader()
  const bytes = fixture(name)
  lib.FS.writeFile('/changed.dwg', bytes)
  return { lib, data: lib.dwg_read_file('/changed.dwg').data, version: dwgVersionOf(bytes) }
}

/** LibreDWG's WebAssembly memory, to read or change its structs in place. */
export function libredwgMemory(lib: LibreDwgEx): DataView {
  return new DataView(
    (lib as unknown as { wasmInstance: { HEAPU8: Uint8Array } }).wasmInstance.HEAPU8.buffer,
  )
}
