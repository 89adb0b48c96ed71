import type { LibreDwgEx } from '@mlightcad/libredwg-web'
import type { Ptr } from './ptr.ts'

type Width = 1 | 2 | 4

/**
 * Fields of LibreDWG's entity structs read straight from WebAssembly memory, at the offsets the
 * library's dynapi reports: no embind call, no JS object per value. The widths are LibreDWG's C
 * types (RC/B = 1 byte, BS = 2, BL and pointers = 4 in wasm32). With `verify`, every read is
 * compared with the library's own getter and a difference throws (the tests run this way, so a
 * new build of the binding with another layout is caught).
 */
export class StructFields {
  private readonly lib: LibreDwgEx
  private readonly heap: { HEAPU8: Uint8Array }
  private readonly verify: boolean
  private readonly offsets = new Map<string, number>()
  private view: DataView

  constructor(lib: LibreDwgEx, verify = false) {
    this.lib = lib
    this.heap = (lib as unknown as { wasmInstance: { HEAPU8: Uint8Array } }).wasmInstance
    this.verify = verify
    this.view = new DataView(this.heap.HEAPU8.buffer)
  }

  /** The memory view, renewed when the memory has grown (the old buffer is then detached). */
  private mem(): DataView {
    const buffer = this.heap.HEAPU8.buffer
    if (this.view.buffer !== buffer) this.view = new DataView(buffer)
    return this.view
  }

  /** `key` is 'TYPE.field', a constant string (so the lookup needs no new string). */
  offset(tio: Ptr, key: string): number {
    let off = this.offsets.get(key)
    if (off === undefined) {
      off = this.lib.dwg_dynapi_entity_field_offset(tio, fieldOf(key))
      this.offsets.set(key, off)
    }
    return off
  }

  /** A double (or the index-th double of a point) of the struct. */
  f64(tio: Ptr, key: string, index = 0): number {
    return this.mem().getFloat64(tio + this.offset(tio, key) + index * 8, true)
  }

  /** A point field (three doubles): one offset look-up, one memory view. */
  point(tio: Ptr, key: string): { x: number; y: number; z: number } {
    const at = tio + this.offset(tio, key)
    const mem = this.mem()
    return {
      x: mem.getFloat64(at, true),
      y: mem.getFloat64(at + 8, true),
      z: mem.getFloat64(at + 16, true),
    }
  }

  /** An unsigned integer field (flag, count) or a pointer (width 4). */
  uint(tio: Ptr, key: string, width: Width): number {
    const at = tio + this.offset(tio, key)
    const mem = this.mem()
    const value =
      width === 1
        ? mem.getUint8(at)
        : width === 2
          ? mem.getUint16(at, true)
          : mem.getUint32(at, true)
    if (this.verify) {
      const expected = Number(this.lib.dwg_dynapi_entity_data(tio, fieldOf(key)) ?? 0)
      if (value !== expected) throw new Error(`${key}: memory has ${value}, the getter ${expected}`)
    }
    return value
  }

  /** The 4-byte value at an address (a pointer, or a count); 0 outside the memory. */
  u32At(address: Ptr): number {
    const mem = this.mem()
    return address >= 0 && address + 4 <= mem.byteLength ? mem.getUint32(address, true) : 0
  }

  /** `length` doubles from an address: a view of the memory when aligned (use it at once). */
  f64Array(address: Ptr, length: number): Float64Array {
    const mem = this.mem()
    if (address % 8 === 0) return new Float64Array(mem.buffer, address, length)
    const out = new Float64Array(length)
    for (let i = 0; i < length; i++) out[i] = mem.getFloat64(address + i * 8, true)
    return out
  }

  /** The signed 2-byte value at an address; 0 outside the memory. */
  i16At(address: Ptr): number {
    const mem = this.mem()
    return address >= 0 && address + 2 <= mem.byteLength ? mem.getInt16(address, true) : 0
  }

  f64At(address: Ptr): number {
    return this.mem().getFloat64(address, true)
  }

  get verifying(): boolean {
    return this.verify
  }
}

function fieldOf(key: string): string {
  return key.slice(key.indexOf('.') + 1)
}
