import { Dwg_Object_Type as T } from '@mlightcad/libredwg-web'
import { type DwgContext, dynapiValue, headerValue, type Ptr } from './context.ts'
import type { ObjectLayout } from './objects.ts'

/**
 * The top bit of an R11 entity's type: the entity was erased, or the BLOCK command moved it into a
 * block definition (whose copy is in the blocks section). It stays where it was in the file, and
 * LibreDWG reads it as if it were drawn.
 */
const DELETED = 0x80

/** Whether an R11 entity is flagged deleted: it belongs to no model space, paper space or block. */
export function isDeleted(ctx: DwgContext, obj: Ptr): boolean {
  return (ctx.wasm.dwg_object_get_type(obj) & DELETED) !== 0
}

/** Past this many vertices a polyline is a misread (the scan would otherwise run to the end). */
const MAX_VERTICES = 10_000_000

/**
 * What R11 drawings keep differently: references to table records (layers, blocks) are indexes
 * into the table, not handles, and a polyline's vertices simply follow it in the entity stream.
 */
export class R11Tables {
  private readonly ctx: DwgContext
  private readonly objects: ObjectLayout
  private layerTable: Ptr[] | null = null
  private blockTable: Ptr[] | null = null

  constructor(ctx: DwgContext, objects: ObjectLayout) {
    this.ctx = ctx
    this.objects = objects
  }

  /** The block record an INSERT's block reference (`ref`) points to by index, or 0. */
  block(ref: Ptr): Ptr {
    this.blockTable ??= this.table(this.ctx.lib.dwg_block_control(this.ctx.data))
    return ref ? (this.blockTable[this.objects.r11Index(ref)] ?? 0) : 0
  }

  /** The layer record at an index of the LAYER table, or 0. */
  layer(index: number): Ptr {
    if (!this.layerTable) {
      const { ctx } = this
      const ref = Number(headerValue(ctx, 'LAYER_CONTROL_OBJECT')) || 0
      const control = ref ? ctx.wasm.dwg_ref_get_object(ref) : 0
      this.layerTable = this.table(control ? ctx.wasm.dwg_object_to_object_tio(control) : 0)
    }
    return this.layerTable[index] ?? 0
  }

  /** The vertices after a polyline in the object array, up to its SEQEND. */
  vertices(polyline: Ptr): Ptr[] {
    const { ctx } = this
    const out: Ptr[] = []
    const start = this.objects.index(polyline)
    if (start < 0) return out
    const count = ctx.lib.dwg_get_num_objects(ctx.data)
    for (let i = start + 1; i < count && out.length < MAX_VERTICES; i++) {
      const obj = ctx.wasm.dwg_get_object(ctx.data, i)
      const type = obj ? ctx.wasm.dwg_object_get_fixedtype(obj) : T.DWG_TYPE_SEQEND
      if (type !== T.DWG_TYPE_VERTEX_2D && type !== T.DWG_TYPE_VERTEX_3D) break
      out.push(obj)
    }
    return out
  }

  /**
   * A table control's records by index. Each entry's own reference carries its index; a table
   * whose entries do not (another layout of the reference struct) is not used.
   */
  private table(control: Ptr): Ptr[] {
    const { ctx } = this
    if (!control) return []
    const count = Number(dynapiValue<number>(ctx, control, 'num_entries')) || 0
    const entries = Number(dynapiValue<Ptr>(ctx, control, 'entries')) || 0
    if (!count || !ctx.heap.has(entries, count * 4)) return []
    const records: Ptr[] = new Array(count)
    for (let i = 0; i < count; i++) {
      const ref = ctx.heap.u32(entries + i * 4)
      if (ref && this.objects.r11Index(ref) !== i) return []
      records[i] = ref ? ctx.wasm.dwg_ref_get_object(ref) : 0
    }
    return records
  }
}
