import { Dwg_Object_Type as T } from '@mlightcad/libredwg-web'
import { type DwgContext, dynapiValue, type Ptr } from './context.ts'
import { isDeleted } from './r11.ts'

/** BLOCK_HEADER flag bits: anonymous, attached drawing (xref), xref attached as an overlay. */
export const ANONYMOUS = 1
export const XREF = 4
export const OVERLAY = 8

export type BlockRecord = {
  /** The record's name; anonymous ones numbered as the drawing shows them (`*U20`). */
  name: string
  flag: number
}

/** Past this many entities a record's list is a misread (the walk would otherwise not end). */
const MAX_OWNED = 10_000_000

/**
 * Block records (BLOCK_HEADER objects): the BLOCK table's entries, by pointer, each read once;
 * the entities each owns (a block definition's, or a layout's: model and paper space are records).
 */
export class BlockRecords {
  private readonly ctx: DwgContext
  private readonly r11: boolean
  private readonly records = new Map<Ptr, BlockRecord>()
  private readonly ownedLists = new Map<Ptr, Ptr[]>()

  /** `r11`: an R11/R12 drawing, whose deleted entities LibreDWG lists with the others. */
  constructor(ctx: DwgContext, r11 = false) {
    this.ctx = ctx
    this.r11 = r11
  }

  /**
   * Whether an entity is part of the drawing: false for an R11 entity flagged deleted (erased, or
   * moved into a block definition, where its copy is counted through the block's references).
   */
  inDrawing(obj: Ptr): boolean {
    return !this.r11 || !isDeleted(this.ctx, obj)
  }

  get(header: Ptr): BlockRecord {
    let record = this.records.get(header)
    if (!record) {
      record = this.read(header)
      this.records.set(header, record)
    }
    return record
  }

  /** Every record of the BLOCK table (R2000+ lists layouts' records there too). */
  all(): Ptr[] {
    const { ctx } = this
    const control = ctx.lib.dwg_block_control(ctx.data)
    if (!control) return []
    const count = Number(ctx.lib.dwg_dynapi_entity_data(control, 'num_entries')) || 0
    const entries = Number(ctx.lib.dwg_dynapi_entity_data(control, 'entries')) || 0
    if (!ctx.heap.has(entries, count * 4)) return []
    const out: Ptr[] = []
    for (let i = 0; i < count; i++) {
      const ref = ctx.heap.u32(entries + i * 4)
      const header = ref ? ctx.wasm.dwg_ref_get_object(ref) : 0
      if (header) out.push(header)
    }
    return out
  }

  /**
   * The entities a record owns, in its order (R11's deleted ones left out). Where the record lists
   * them by handle (R2004+), the entries that lead to no object are logged as damage, and a walk
   * that stops at such a hole is completed from the list.
   */
  owned(header: Ptr): Ptr[] {
    let out = this.ownedLists.get(header)
    if (!out) {
      out = this.readOwned(header).filter((obj) => this.inDrawing(obj))
      this.ownedLists.set(header, out)
    }
    return out
  }

  private readOwned(header: Ptr): Ptr[] {
    const { wasm } = this.ctx
    const out: Ptr[] = []
    const seen = new Set<Ptr>()
    let next = wasm.get_first_owned_entity(header)
    while (next && out.length < MAX_OWNED) {
      // A chain that comes back to an entity is broken: it would go round for ever.
      if (seen.has(next)) {
        this.ctx.damage.brokenList(header)
        break
      }
      seen.add(next)
      out.push(next)
      next = wasm.get_next_owned_entity(header, next)
    }
    // Some writers leave the first/last entity links empty: the handle list still names them.
    const listed = this.listed(header)
    return listed.length > out.length ? listed : out
  }

  /** The entities the record's handle list names and LibreDWG read (none: no list). */
  private listed(header: Ptr): Ptr[] {
    const { lib, wasm } = this.ctx
    const tio = wasm.dwg_object_to_object_tio(header)
    const count = Number(lib.dwg_dynapi_entity_data(tio, 'num_owned')) || 0
    const refs = lib.dwg_dynapi_entity_data(tio, 'entities') as Ptr
    const out: Ptr[] = []
    if (!count || !refs || !this.ctx.heap.has(refs, count * 4)) return out
    for (let i = 0; i < count; i++) {
      const ref = this.ctx.heap.u32(refs + i * 4)
      const obj = ref ? wasm.dwg_ref_get_object(ref) : 0
      if (obj) out.push(obj)
    }
    this.ctx.damage.list(header, count, count - out.length)
    return out
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
