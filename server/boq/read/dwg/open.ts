import { dwgCodePageToEncoding, type LibreDwgEx } from '@mlightcad/libredwg-web'
import { BoqError } from '../../model/boq-error.ts'
import type { Ptr } from './context.ts'

/** LibreDWG's error bits from 128 up are fatal (classes, sections, pages missing; invalid file). */
const FATAL = 128
const OUT_OF_MEMORY = 8192
const ERROR_NAMES: Record<number, string> = {
  128: 'classes not found',
  256: 'section not found',
  512: 'page not found',
  1024: 'internal error',
  2048: 'invalid DWG',
  4096: 'I/O error',
  8192: 'out of memory',
}

/**
 * The bytes read by LibreDWG: its Dwg_Data, and the error bits of the read (none of them fatal:
 * those throw). `lib` must be in a fresh state (a new instance, or a reset one): an instance
 * carried into a second file as it was left can crash.
 */
export function openDwg(lib: LibreDwgEx, bytes: Uint8Array): { data: Ptr; flags: number } {
  const path = '/input.dwg'
  // canOwn: the file system keeps a view of the bytes instead of copying them.
  lib.FS.writeFile(path, bytes, { canOwn: true })
  let result: { error: number; data: Ptr }
  try {
    result = lib.dwg_read_file(path)
  } finally {
    lib.FS.unlink(path)
  }
  const { error, data } = result
  if (error & OUT_OF_MEMORY) {
    throw new BoqError('too-large', 'The drawing needs more memory than the reader is allowed.')
  }
  if (error >= FATAL || !data) {
    throw new BoqError(
      'corrupt',
      `Truncated or corrupt (LibreDWG: ${fatalText(error) || `error ${error}`}).`,
    )
  }
  return { data, flags: error }
}

/**
 * Every drawing has objects (block records, layers, styles); none at all means LibreDWG read its
 * header and not its body.
 */
export function assertHasObjects(lib: LibreDwgEx, data: Ptr): void {
  if (lib.dwg_get_num_objects(data) === 0) {
    throw new BoqError(
      'corrupt',
      'Truncated or corrupt (LibreDWG read the header but found no objects in the rest of the file).',
    )
  }
}

/**
 * Strings of pre-2007 drawings are in the drawing's code page, and the binding decodes them with
 * the decoder set on the instance: this one sets the drawing's and returns how to put the
 * instance's own back, so the next drawing does not inherit it.
 */
export function decodeInCodePage(lib: LibreDwgEx, data: Ptr): () => void {
  const binding = lib as unknown as { decoder: TextDecoder }
  const own = binding.decoder
  try {
    binding.decoder = new TextDecoder(dwgCodePageToEncoding(lib.dwg_get_codepage(data)))
  } catch {
    // Unknown code page: the binding's default decoding stays.
  }
  return () => {
    binding.decoder = own
  }
}

function fatalText(code: number): string {
  return Object.entries(ERROR_NAMES)
    .filter(([bit]) => code & Number(bit))
    .map(([, name]) => name)
    .join(', ')
}
