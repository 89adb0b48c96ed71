import {
  dwgCodePageToEncoding,
  type LibreDwgEx,
  Dwg_Object_Type as T,
} from '@mlightcad/libredwg-web'
import {
  type Attribute,
  type Drawing,
  emptyDrawing,
  type InsertRef,
  isGraphicsBlock,
  skip,
} from '../drawing.ts'
import { BoqError } from '../errors.ts'
import { type BlockRecord, BlockRecords, OVERLAY, XREF } from './dwg/block-records.ts'
import type { DwgContext, Ptr, Wasm } from './dwg/context.ts'
import { DynamicBlocks, NAME_ROUTES, type NameRoute } from './dwg/dynamic-blocks.ts'
import { EntityReader } from './dwg/entities.ts'
import { Heap } from './dwg/heap.ts'
import { Layers } from './dwg/layers.ts'
import { ObjectLayout } from './dwg/objects.ts'
import { R11Tables } from './dwg/r11.ts'
import { skipReason } from './entity-kinds.ts'
import { StructFields } from './struct-fields.ts'
import { attributeRecord, titleBlockScore } from './title-block.ts'

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

/** R11/R12: table references by index, no owner links (detect.ts's version string). */
const R11 = 'AC1009'

/** Decoders by code page, made once per thread. */
const decoders = new Map<string, TextDecoder>()

/** Types whose DXF name varies from object to object (it is the class's name). */
const UNNAMED_TYPES = new Set<number>([
  T.DWG_TYPE_PROXY_ENTITY,
  T.DWG_TYPE_PROXY_OBJECT,
  T.DWG_TYPE_UNKNOWN_ENT,
  T.DWG_TYPE_UNKNOWN_OBJ,
])

export type DwgReadOptions = {
  /** Compare every direct memory read with the binding's getter (tests). */
  verify?: boolean
  /** Where dynamic block names are looked for (both by default; tests try each alone). */
  dynamicRoutes?: readonly NameRoute[]
}

function fatalText(code: number): string {
  return Object.entries(ERROR_NAMES)
    .filter(([bit]) => code & Number(bit))
    .map(([, name]) => name)
    .join(', ')
}

/**
 * Reads a DWG with LibreDWG's low-level calls, only what a BOQ needs (no whole-drawing convert()).
 * `lib` must be in a fresh state (a new instance, or a reset one): an instance carried
 * into a second file as it was left can crash.
 */
export function readDwg(
  lib: LibreDwgEx,
  bytes: Uint8Array,
  version: string,
  options: DwgReadOptions = {},
): Drawing {
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
  return walkDwg(lib, data, version, options)
}

/** The drawing model of a drawing LibreDWG has read already (`data` is its Dwg_Data). */
export function walkDwg(
  lib: LibreDwgEx,
  data: Ptr,
  version: string,
  options: DwgReadOptions = {},
): Drawing {
  return new DwgWalker(lib, data, version, options).read()
}

class DwgWalker {
  private readonly ctx: DwgContext
  private readonly drawing: Drawing
  private readonly objects: ObjectLayout
  private readonly records: BlockRecords
  private readonly dynamic: DynamicBlocks
  private readonly r11: R11Tables | null
  private readonly layers: Layers
  private readonly entities: EntityReader
  private readonly typeNames = new Map<number, string>()
  /** Definitions whose nested references are being read (a reference to one is a loop). */
  private readonly expanding = new Set<string>()
  private readonly loops = new Set<string>()
  private titleScore = 0

  constructor(lib: LibreDwgEx, data: Ptr, version: string, options: DwgReadOptions) {
    const verify = options.verify ?? false
    this.ctx = {
      lib,
      data,
      verify,
      fields: new StructFields(lib, verify),
      heap: new Heap(lib),
      wasm: (lib as unknown as { wasmInstance: Wasm }).wasmInstance,
    }
    this.drawing = emptyDrawing('dwg', version)
    this.objects = new ObjectLayout(this.ctx)
    this.records = new BlockRecords(this.ctx)
    this.dynamic = new DynamicBlocks(this.ctx, this.records, options.dynamicRoutes ?? NAME_ROUTES)
    this.r11 = version === R11 ? new R11Tables(this.ctx, this.objects) : null
    this.layers = new Layers(this.ctx, this.r11)
    this.entities = new EntityReader(this.ctx, this.layers, this.objects, this.r11)
    // Strings of pre-2007 drawings are in the drawing's code page; the binding decodes with this.
    try {
      const encoding = dwgCodePageToEncoding(lib.dwg_get_codepage(data))
      let decoder = decoders.get(encoding)
      if (!decoder) {
        decoder = new TextDecoder(encoding)
        decoders.set(encoding, decoder)
      }
      ;(lib as unknown as { decoder: TextDecoder }).decoder = decoder
    } catch {
      // Unknown code page: the binding's default decoding stays.
    }
  }

  read(): Drawing {
    const { lib, data } = this.ctx
    const { drawing } = this
    // Every drawing has objects (block records, layers, styles); none at all means its header
    // was read and its body was not.
    if (lib.dwg_get_num_objects(data) === 0) {
      throw new BoqError(
        'corrupt',
        'Truncated or corrupt (LibreDWG read the header but found no objects in the rest of the file).',
      )
    }
    drawing.insunits = this.headerNumber('INSUNITS')
    const modelSpace = lib.dwg_model_space_object(data)
    const entities = this.modelSpaceEntities(modelSpace)
    if (entities.length === 0 && lib.dwg_get_num_objects(data) > 0 && !modelSpace) {
      drawing.warnings.push(
        'The reader found no model space in this drawing: it may be only partly readable.',
      )
    }
    for (const obj of entities) this.readEntity(obj)
    if (entities.length === 0) {
      drawing.warnings.push(
        'Model space is empty: nothing to measure (the content may be in block definitions or paper space).',
      )
    }
    this.readPaperSpace(modelSpace, lib.dwg_paper_space_object(data))
    return drawing
  }

  private headerNumber(field: string): number {
    try {
      const value = this.ctx.lib.dwg_dynapi_header_value(this.ctx.data, field)
      return typeof value.data === 'number' ? value.data : 0
    } catch {
      return 0
    }
  }

  /** Model-space entities: the owned list, else (LibreDWG issue 1199) every entity owned by it. */
  private modelSpaceEntities(modelSpace: Ptr): Ptr[] {
    const { lib, data, wasm } = this.ctx
    const owned = modelSpace ? this.ownedEntities(modelSpace) : []
    if (owned.length > 0) return owned
    const msTio = modelSpace ? wasm.dwg_object_to_object_tio(modelSpace) : 0
    const found: Ptr[] = []
    const n = lib.dwg_get_num_objects(data)
    for (let i = 0; i < n; i++) {
      const obj = wasm.dwg_get_object(data, i)
      if (!obj || wasm.dwg_object_get_supertype(obj) !== 0) continue
      const type = wasm.dwg_object_get_fixedtype(obj)
      if (isSubentity(type)) continue
      const owner = wasm.dwg_entity_owner(wasm.dwg_object_to_entity_tio(obj))
      if (owner === msTio || (!msTio && !owner)) found.push(obj)
    }
    return found
  }

  private ownedEntities(blockHeader: Ptr): Ptr[] {
    const { lib, wasm } = this.ctx
    const out: Ptr[] = []
    let next = wasm.get_first_owned_entity(blockHeader)
    while (next && out.length < 10_000_000) {
      out.push(next)
      next = wasm.get_next_owned_entity(blockHeader, next)
    }
    if (out.length > 0) return out
    // Some writers leave the first/last entity links empty: the handle list still names them.
    const tio = wasm.dwg_object_to_object_tio(blockHeader)
    const count = Number(lib.dwg_dynapi_entity_data(tio, 'num_owned')) || 0
    const refs = lib.dwg_dynapi_entity_data(tio, 'entities') as Ptr
    if (!count || !refs) return out
    for (const ref of lib.dwg_ptr_to_object_ref_ptr_array(refs, count)) {
      const obj = wasm.dwg_ref_get_object(ref)
      if (obj) out.push(obj)
    }
    return out
  }

  /** The DXF name by type: a type has one name, except proxies and unknown classes. */
  private typeName(obj: Ptr, type: number): string {
    const cached = this.typeNames.get(type)
    if (cached !== undefined && !this.ctx.verify) return cached
    const name = this.ctx.wasm.dwg_object_get_dxfname(obj) || 'UNKNOWN'
    if (cached !== undefined && cached !== name) throw new Error(`type ${type}: names differ`)
    if (!UNNAMED_TYPES.has(type)) this.typeNames.set(type, name)
    return name
  }

  private readEntity(obj: Ptr): void {
    const { drawing } = this
    const type = this.ctx.wasm.dwg_object_get_fixedtype(obj)
    const typeName = this.typeName(obj, type)
    drawing.entityCounts[typeName] = (drawing.entityCounts[typeName] ?? 0) + 1
    if (type === T.DWG_TYPE_INSERT || type === T.DWG_TYPE_MINSERT) {
      const ref = this.insert(obj, type, true)
      if (ref) drawing.inserts.push(ref)
      return
    }
    const entity = this.entities.read(obj, type)
    if (entity) drawing.entities.push(entity)
    else skip(drawing, typeName, skipReason(typeName))
  }

  /** The block record an INSERT places (R11: by its index in the BLOCK table). */
  private insertedBlock(tio: Ptr, minsert: boolean): Ptr {
    const ref = this.ctx.fields.uint(
      tio,
      minsert ? 'MINSERT.block_header' : 'INSERT.block_header',
      4,
    )
    const header = ref ? this.ctx.wasm.dwg_ref_get_object(ref) : 0
    if (header || !this.r11) return header
    return this.r11.block(ref)
  }

  /**
   * A block reference, or null when it is not an item: an anonymous graphics block (listed as
   * skipped when top-level) or an attached drawing (listed as an xref when top-level).
   */
  private insert(obj: Ptr, type: number, topLevel: boolean): InsertRef | null {
    const { drawing, ctx } = this
    const tio = ctx.wasm.dwg_object_to_entity_tio(obj)
    const minsert = type === T.DWG_TYPE_MINSERT
    const header = this.insertedBlock(tio, minsert)
    const record = header ? this.records.get(header) : null
    const at = minsert ? 'MINSERT.ins_pt' : 'INSERT.ins_pt'
    if (record && record.flag & XREF) {
      if (topLevel) this.xref(obj, tio, at, header, record)
      return null
    }
    const definition =
      record?.name ?? String(ctx.lib.dwg_dynapi_entity_data(tio, 'block_name') ?? '')
    if (!definition || isGraphicsBlock(definition)) {
      if (!topLevel) return null
      skip(
        drawing,
        `${minsert ? 'MINSERT' : 'INSERT'} ${anonymousKind(definition)}`,
        'anonymous block (hatch, dimension or group graphics of old releases): not a placed block',
      )
      return null
    }
    const block = this.dynamic.effectiveName(header, obj, definition)
    const properties = this.dynamic.isDynamic(header, definition, block)
      ? this.dynamic.properties(obj, block)
      : {}
    const count = minsert
      ? Math.max(1, ctx.lib.dwg_dynapi_entity_data<number>(tio, 'num_rows') || 1) *
        Math.max(1, ctx.lib.dwg_dynapi_entity_data<number>(tio, 'num_cols') || 1)
      : 1
    if (header) this.readDefinition(header, definition, block)
    const attributes = this.attributes(obj)
    this.considerTitleBlock(block, attributes)
    return {
      block,
      definition,
      handle: this.objects.handle(obj),
      layer: this.layers.nameOf(obj, tio),
      properties,
      count,
      x: ctx.fields.f64(tio, at, 0),
      y: ctx.fields.f64(tio, at, 1),
      attributes,
    }
  }

  /**
   * The references inside a definition, read once. A definition met again while its own
   * references are being read contains itself: the loop is cut there and reported once.
   */
  private readDefinition(header: Ptr, definition: string, block: string): void {
    const { nestedInserts } = this.drawing
    if (nestedInserts.has(definition)) {
      if (this.expanding.has(definition) && !this.loops.has(definition)) {
        this.loops.add(definition)
        this.drawing.warnings.push(
          `Block "${block}" contains itself; the reference that closes the loop is counted but not followed.`,
        )
      }
      return
    }
    nestedInserts.set(definition, []) // placeholder first: a reference to itself stops here
    this.expanding.add(definition)
    nestedInserts.set(definition, this.nestedInserts(header))
    this.expanding.delete(definition)
  }

  /** `at` is the insertion point's field key (INSERT or MINSERT). */
  private xref(obj: Ptr, tio: Ptr, at: string, header: Ptr, record: BlockRecord): void {
    this.drawing.xrefs.push({
      name: record.name,
      path: this.records.xrefPath(header),
      overlay: (record.flag & OVERLAY) !== 0,
      handle: this.objects.handle(obj),
      layer: this.layers.nameOf(obj, tio),
      x: this.ctx.fields.f64(tio, at, 0),
      y: this.ctx.fields.f64(tio, at, 1),
    })
  }

  private considerTitleBlock(block: string, attributes: Attribute[]): void {
    const score = titleBlockScore(block, attributes)
    if (score > this.titleScore) {
      this.titleScore = score
      this.drawing.titleBlock = { block, attributes: attributeRecord(attributes) }
    }
  }

  private nestedInserts(header: Ptr): InsertRef[] {
    const out: InsertRef[] = []
    for (const obj of this.ownedEntities(header)) {
      const type = this.ctx.wasm.dwg_object_get_fixedtype(obj)
      if (type !== T.DWG_TYPE_INSERT && type !== T.DWG_TYPE_MINSERT) continue
      const ref = this.insert(obj, type, false)
      if (ref) out.push(ref)
    }
    return out
  }

  private attributes(obj: Ptr): Attribute[] {
    const { wasm, lib } = this.ctx
    const out: Attribute[] = []
    // The owned sub-entity walk finds ATTRIBs in every release (the binding's getter misses R2000's).
    const attribs: Ptr[] = []
    try {
      let sub = wasm.get_first_owned_subentity(obj)
      while (sub && attribs.length < 100_000) {
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

  /**
   * Paper space is not measured: its entities are counted (every layout's block record), and
   * the active layout is looked at for a title block.
   */
  private readPaperSpace(modelSpace: Ptr, paperSpace: Ptr): void {
    try {
      if (paperSpace) {
        const entities = this.ownedEntities(paperSpace)
        this.drawing.paperSpaceEntities += entities.length
        this.readTitleBlockFrom(entities)
      }
      for (const layout of this.otherLayouts(modelSpace, paperSpace)) {
        this.drawing.paperSpaceEntities += this.ownedEntities(layout).length
      }
    } catch (error) {
      // Paper space is only counted and looked at for a title block; a failure costs nothing else.
      if (this.ctx.verify) throw error
    }
  }

  /** The block records of the other layouts (R2000+: records that point to a LAYOUT object). */
  private otherLayouts(modelSpace: Ptr, paperSpace: Ptr): Ptr[] {
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
      if (!header || header === modelSpace || header === paperSpace) continue
      if (this.records.isBlockRecord(header) && this.records.isLayout(header)) out.push(header)
    }
    return out
  }

  private readTitleBlockFrom(entities: Ptr[]): void {
    const { wasm } = this.ctx
    for (const obj of entities) {
      if (wasm.dwg_object_get_fixedtype(obj) !== T.DWG_TYPE_INSERT) continue
      const header = this.insertedBlock(wasm.dwg_object_to_entity_tio(obj), false)
      if (!header) continue
      const { name } = this.records.get(header)
      const block = this.dynamic.effectiveName(header, obj, name)
      this.considerTitleBlock(block, this.attributes(obj))
    }
  }
}

function anonymousKind(name: string): string {
  const letter = name.charAt(1).toUpperCase()
  return letter ? `*${letter}` : '(unnamed)'
}

function isSubentity(type: number): boolean {
  return (
    type === T.DWG_TYPE_VERTEX_2D ||
    type === T.DWG_TYPE_VERTEX_3D ||
    type === T.DWG_TYPE_VERTEX_MESH ||
    type === T.DWG_TYPE_VERTEX_PFACE ||
    type === T.DWG_TYPE_VERTEX_PFACE_FACE ||
    type === T.DWG_TYPE_ATTRIB ||
    type === T.DWG_TYPE_SEQEND ||
    type === T.DWG_TYPE_BLOCK ||
    type === T.DWG_TYPE_ENDBLK
  )
}
