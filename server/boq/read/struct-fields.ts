import type { LibreDwgEx } from '@mlightcad/libredwg-web'

type Ptr = number
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

  offset(tio: Ptr, type: string, field: string): number {
    const key = `${type}.${field}`
    let off = this.offsets.get(key)
    if (off === undefined) {
      off = this.lib.dwg_dynapi_entity_field_offset(tio, field)
      this.offsets.set(key, off)
    }
    return off
  }

  /** A double (or the index-th double of a point) of the struct. */
  f64(tio: Ptr, type: string, field: string, index = 0): number {
    return this.mem().getFloat64(tio + this.offset(tio, type, field) + index * 8, true)
  }

  /** An unsigned integer field (flag, count) or a pointer (width 4). */
  uint(tio: Ptr, type: string, field: string, width: Width): number {
    const at = tio + this.offset(tio, type, field)
    const mem = this.mem()
    const value =
      width === 1
        ? mem.getUint8(at)
        : width === 2
          ? mem.getUint16(at, true)
          : mem.getUint32(at, true)
    if (this.verify) {
      const expected = Number(this.lib.dwg_dynapi_entity_data(tio, field) ?? 0)
      if (value !== expected)
        throw new Error(`${type}.${field}: memory has ${value}, the getter ${expected}`)
    }
    return value
  }

  /** The 4-byte value at an address (a pointer, or a count); 0 outside the memory. */
  u32At(address: Ptr): number {
    const mem = this.mem()
    return address >= 0 && address + 4 <= mem.byteLength ? mem.getUint32(address, true) : 0
  }

  f64At(address: Ptr): number {
    return this.mem().getFloat64(address, true)
  }

  get verifying(): boolean {
    return this.verify
  }
}
