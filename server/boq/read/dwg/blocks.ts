import { Dwg_Object_Type as T } from '@mlightcad/libredwg-web'
import { type Attribute, type InsertRef, isGraphicsBlock } from '../../model/drawing.ts'
import type { DrawingBuilder } from '../drawing-builder.ts'
import { type BlockRecord, type BlockRecords, OVERLAY, XREF } from './block-records.ts'
import type { DwgContext, Ptr } from './context.ts'
import type { DynamicBlocks } from './dynamic-blocks.ts'
import { isReference } from './entity-types.ts'
import type { Layers } from './layers.ts'
import type { ObjectLayout } from './objects.ts'
import type { R11Tables } from './r11.ts'

/** What block references are read with: the drawing's records, names, layers and tables. */
export type BlockParts = {
  records: BlockRecords
  dynamic: DynamicBlocks
  layers: Layers
  objects: ObjectLayout
  /** R11/R12 only: references name their block by its index in the BLOCK table. */
  r11: R11Tables | null
}

/** Past this many attributes a reference's list is a misread. */
const MAX_ATTRIBUTES = 100_000

/**
 * DWG block references (INSERT, MINSERT) and the block definitions they place: what a reference
 * is (a placed block, an attached drawing, or an anonymous graphics block), its effective name,
 * properties and attributes, and the references inside its definition.
 */
export class BlockReader {
  private readonly ctx: DwgContext
  private readonly builder: DrawingBuilder
  private readonly parts: BlockParts

  constructor(ctx: DwgContext, builder: DrawingBuilder, parts: BlockParts) {
    this.ctx = ctx
    this.builder = builder
    this.parts = parts
  }

  /** A model-space reference (`type`: INSERT or MINSERT): a placed block, an xref, or skipped. */
  inModelSpace(obj: Ptr, type: number): void {
    const ref = this.reference(obj, type, true)
    if (ref) this.builder.insert(ref)
  }

  /** A paper-space INSERT: not counted, only looked at for a title block. */
  inPaperSpace(obj: Ptr): void {
    const header = this.insertedBlock(this.ctx.wasm.dwg_object_to_entity_tio(obj), false)
    if (!header) return
    const { name } = this.parts.records.get(header)
    const block = this.parts.dynamic.effectiveName(header, obj, name)
    this.builder.titleBlockCandidate(block, this.attributes(obj))
  }

  /** The block record an INSERT or MINSERT places (R11: by its index in the BLOCK table). */
  insertedBlock(tio: Ptr, minsert: boolean): Ptr {
    const { ctx } = this
    const ref = ctx.fields.uint(tio, minsert ? 'MINSERT.block_header' : 'INSERT.block_header', 4)
    let header = ref ? ctx.wasm.dwg_ref_get_object(ref) : 0
    if (!header && this.parts.r11) header = this.parts.r11.block(ref)
    // Every reference names a block: one that leads to none is a lost record.
    if (!header) ctx.damage.blockLost(tio)
    return header
  }

  /**
   * A block reference, or null when it is not an item: an anonymous graphics block (listed as
   * skipped when top-level) or an attached drawing (listed as an xref when top-level).
   */
  private reference(obj: Ptr, type: number, topLevel: boolean): InsertRef | null {
    const { ctx, builder } = this
    const { records, dynamic, layers, objects } = this.parts
    const tio = ctx.wasm.dwg_object_to_entity_tio(obj)
    const minsert = type === T.DWG_TYPE_MINSERT
    const header = this.insertedBlock(tio, minsert)
    const record = header ? records.get(header) : null
    const at = minsert ? 'MINSERT.ins_pt' : 'INSERT.ins_pt'
    if (record && record.flag & XREF) {
      if (topLevel) this.xref(obj, tio, at, header, record)
      return null
    }
    const definition =
      record?.name ?? String(ctx.lib.dwg_dynapi_entity_data(tio, 'block_name') ?? '')
    if (!definition || isGraphicsBlock(definition)) {
      if (topLevel) builder.graphicsReference(minsert ? 'MINSERT' : 'INSERT', definition)
      return null
    }
    const block = dynamic.effectiveName(header, obj, definition)
    const properties = dynamic.isDynamic(header, definition, block)
      ? dynamic.properties(obj, block, header)
      : {}
    const count = minsert
      ? Math.max(1, ctx.lib.dwg_dynapi_entity_data<number>(tio, 'num_rows') || 1) *
        Math.max(1, ctx.lib.dwg_dynapi_entity_data<number>(tio, 'num_cols') || 1)
      : 1
    if (header) builder.definition(definition, block, () => this.nested(header))
    const attributes = this.attributes(obj)
    builder.titleBlockCandidate(block, attributes)
    return {
      block,
      definition,
      handle: objects.handle(obj),
      layer: layers.nameOf(obj, tio),
      properties,
      count,
      x: ctx.fields.f64(tio, at, 0),
      y: ctx.fields.f64(tio, at, 1),
      attributes,
    }
  }

  /** The references a definition holds (its block record's own INSERTs and MINSERTs). */
  private nested(header: Ptr): InsertRef[] {
    const out: InsertRef[] = []
    for (const obj of this.parts.records.owned(header)) {
      const type = this.ctx.wasm.dwg_object_get_fixedtype(obj)
      if (!isReference(type)) continue
      const ref = this.reference(obj, type, false)
      if (ref) out.push(ref)
    }
    return out
  }

  /** `at` is the insertion point's field key (INSERT or MINSERT). */
  private xref(obj: Ptr, tio: Ptr, at: string, header: Ptr, record: BlockRecord): void {
    const { ctx } = this
    const { records, layers, objects } = this.parts
    this.builder.xref({
      name: record.name,
      path: records.xrefPath(header),
      overlay: (record.flag & OVERLAY) !== 0,
      handle: objects.handle(obj),
      layer: layers.nameOf(obj, tio),
      x: ctx.fields.f64(tio, at, 0),
      y: ctx.fields.f64(tio, at, 1),
    })
  }

  private attributes(obj: Ptr): Attribute[] {
    const { wasm, lib } = this.ctx
    const out: Attribute[] = []
    // The owned sub-entity walk finds ATTRIBs in every release (the binding's getter misses R2000's).
    const attribs: Ptr[] = []
    try {
      let sub = wasm.get_first_owned_subentity(obj)
      while (sub && attribs.length < MAX_ATTRIBUTES) {
        attribs.push(sub)
        sub = wasm.get_next_owned_subentity(obj, sub)
      }
    } catch {
      return out
    }
    for (const attrib of attribs) {
      if (wasm.dwg_object_get_fixedtype(attrib) !== T.DWG_TYPE_ATTRIB) continue
      const tio = wasm.dwg_object_to_entity_tio(attrib)
      const tag = String(lib.dwg_dynapi_entity_data<string>(tio, 'tag') ?? '')
      if (tag) {
        out.push({
          tag,
          value: String(lib.dwg_dynapi_entity_data<string>(tio, 'text_value') ?? ''),
        })
      }
    }
    return out
  }
}
