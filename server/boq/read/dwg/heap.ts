import type { LibreDwgEx } from '@mlightcad/libredwg-web'
import type { Ptr } from './ptr.ts'

/**
 * Bounds-checked reads of WebAssembly memory at raw addresses (structs the dynapi does not
 * describe: Dwg_Object, Dwg_Object_Ref, Dwg_Eed). A read outside the memory gives 0.
 */
export class Heap {
  private readonly module: { HEAPU8: Uint8Array }
  private view: DataView

  constructor(lib: LibreDwgEx) {
    this.module = (lib as unknown as { wasmInstance: { HEAPU8: Uint8Array } }).wasmInstance
    this.view = new DataView(this.module.HEAPU8.buffer)
  }

  /** The memory view, renewed when the memory has grown (the old buffer is then detached). */
  private mem(): DataView {
    const buffer = this.module.HEAPU8.buffer
    if (this.view.buffer !== buffer) this.view = new DataView(buffer)
    return this.view
  }

  /** Whether `length` bytes from `address` are inside the memory (address 0 never is). */
  has(address: Ptr, length: number): boolean {
    return address > 0 && length >= 0 && address + length <= this.mem().byteLength
  }

  u8(address: Ptr): number {
    return this.has(address, 1) ? this.mem().getUint8(address) : 0
  }

  u16(address: Ptr): number {
    return this.has(address, 2) ? this.mem().getUint16(address, true) : 0
  }

  u32(address: Ptr): number {
    return this.has(address, 4) ? this.mem().getUint32(address, true) : 0
  }

  u64(address: Ptr): bigint {
    return this.has(address, 8) ? this.mem().getBigUint64(address, true) : 0n
  }

  /** A 64-bit value in upper-case hex (a handle, as DXF writes it), without a BigInt when small. */
  hex64(address: Ptr): string {
    if (!this.has(address, 8)) return '0'
    const mem = this.mem()
    const low = mem.getUint32(address, true)
    const high = mem.getUint32(address + 4, true)
    if (high === 0) return low.toString(16).toUpperCase()
    return mem.getBigUint64(address, true).toString(16).toUpperCase()
  }

  f64(address: Ptr): number {
    return this.has(address, 8) ? this.mem().getFloat64(address, true) : 0
  }
}
