import { Dwg_Object_Type as T } from '@mlightcad/libredwg-web'
import { type DwgContext, dynapiValue, type Ptr } from './context.ts'

/** BLOCK_HEADER flag bits: anonymous, attached drawing (xref), xref attached as an overlay. */
export const ANONYMOUS = 1
export const XREF = 4
export const OVERLAY = 8

export type BlockRecord = {
  /** The record's name; anonymous ones numbered as the drawing shows them (`*U20`). */
  name: string
  flag: number
}

/** Block records (BLOCK_HEADER objects) by pointer, read once each. */
export class BlockRecords {
  private readonly ctx: DwgContext
  private readonly records = new Map<Ptr, BlockRecord>()

  constructor(ctx: DwgContext) {
    this.ctx = ctx
  }

  get(header: Ptr): BlockRecord {
    let record = this.records.get(header)
    if (!record) {
      record = this.read(header)
      this.records.set(header, record)
    }
    return record
  }

  isBlockRecord(obj: Ptr): boolean {
    return obj !== 0 && this.ctx.wasm.dwg_object_get_fixedtype(obj) === T.DWG_TYPE_BLOCK_HEADER
  }

  /** The attached drawing's path of an xref record ('' when the reader gives none). */
  xrefPath(header: Ptr): string {
    const tio = this.ctx.wasm.dwg_object_to_object_tio(header)
    return String(dynapiValue<string>(this.ctx, tio, 'xref_pname') ?? '')
  }

  /** Whether the record is a layout's (model or paper space): it points to a LAYOUT object. */
  isLayout(header: Ptr): boolean {
    const { ctx } = this
    const tio = ctx.wasm.dwg_object_to_object_tio(header)
    const ref = tio ? ctx.fields.uint(tio, 'BLOCK_HEADER.layout', 4) : 0
    const layout = ref ? ctx.wasm.dwg_ref_get_object(ref) : 0
    return layout !== 0 && ctx.wasm.dwg_object_get_fixedtype(layout) === T.DWG_TYPE_LAYOUT
  }

  private read(header: Ptr): BlockRecord {
    const { ctx } = this
    const tio = ctx.wasm.dwg_object_to_object_tio(header)
    if (!tio) return { name: '', flag: 0 }
    const flag = ctx.fields.uint(tio, 'BLOCK_HEADER.flag', 1)
    // The record keeps an anonymous name unnumbered (`*U`); its BLOCK entity has it as shown.
    const name = this.blockEntityName(tio) || String(dynapiValue<string>(ctx, tio, 'name') ?? '')
    return { name, flag }
  }

  private blockEntityName(tio: Ptr): string {
    const { ctx } = this
    const ref = ctx.fields.uint(tio, 'BLOCK_HEADER.block_entity', 4)
    const block = ref ? ctx.wasm.dwg_ref_get_object(ref) : 0
    if (!block) return ''
    const blockTio = ctx.wasm.dwg_object_to_entity_tio(block)
    return blockTio ? String(dynapiValue<string>(ctx, blockTio, 'name') ?? '') : ''
  }
}
