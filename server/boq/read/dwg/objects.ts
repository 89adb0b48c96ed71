import { CheckedRead } from './checked-read.ts'
import type { DwgContext, Ptr } from './context.ts'

/**
 * Offsets in LibreDWG's own structs (wasm32), which the dynapi does not describe: Dwg_Object's
 * index in the drawing's object array and its handle's value; Dwg_Object_Ref's table index
 * (what an R11 reference has instead of a handle).
 */
const OBJECT_INDEX = 12
const OBJECT_HANDLE_VALUE = 48
const REF_R11_INDEX = 40

/** Reads of Dwg_Object and Dwg_Object_Ref fields straight from memory, each one checked. */
export class ObjectLayout {
  private readonly ctx: DwgContext
  private readonly handles: CheckedRead<string>

  constructor(ctx: DwgContext) {
    this.ctx = ctx
    this.handles = new CheckedRead<string>(
      {
        name: 'object handle',
        fromMemory: (obj) => ctx.heap.hex64(obj + OBJECT_HANDLE_VALUE),
        byGetter: (obj) => (ctx.lib.dwg_obj_get_handle_value(obj) ?? 0n).toString(16).toUpperCase(),
        same: (a, b) => a === b,
        show: (hex) => hex,
      },
      ctx.verify,
    )
  }

  /** The object's handle in hex, as DXF writes it ('0' when it has none). */
  handle(obj: Ptr): string {
    return this.handles.read(obj) ?? '0'
  }

  /** The object's index in the drawing's object array, or -1 (checked against the array itself). */
  index(obj: Ptr): number {
    const index = this.ctx.heap.u32(obj + OBJECT_INDEX)
    return this.ctx.wasm.dwg_get_object(this.ctx.data, index) === obj ? index : -1
  }

  /** An R11 reference's index into its table (R11 has no handles). */
  r11Index(ref: Ptr): number {
    return this.ctx.heap.u16(ref + REF_R11_INDEX)
  }
}
