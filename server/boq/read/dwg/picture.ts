import { Dwg_Object_Type as T } from '@mlightcad/libredwg-web'
import type { DrawingEntity } from '../../model/drawing.ts'
import { type PictureEntity, placedAtOrigin, type Shape } from '../../model/picture.ts'
import type { Point } from '../../model/primitives.ts'
import type { DrawingBuilder } from '../drawing-builder.ts'
import { type BlockRecords, XREF } from './block-records.ts'
import type { BlockReader } from './blocks.ts'
import type { DwgContext, Ptr } from './context.ts'
import type { EntityReader } from './entities.ts'
import { EntityColours } from './entity-colours.ts'
import { isSubentity } from './entity-types.ts'
import type { Layers } from './layers.ts'
import type { ObjectLayout } from './objects.ts'
import { ShapeReader } from './picture-shapes.ts'

/** What the picture is read with: the drawing's records, references, geometry, layers, handles. */
export type PictureParts = {
  records: BlockRecords
  blocks: BlockReader
  entities: EntityReader
  layers: Layers
  objects: ObjectLayout
}

/** The struct fields of a block reference (INSERT, MINSERT, and a table's graphics). */
type ReferenceFields = {
  at: string
  scale: string
  rotation: string
  extrusion: string
}
const INSERT: ReferenceFields = {
  at: 'INSERT.ins_pt',
  scale: 'INSERT.scale',
  rotation: 'INSERT.rotation',
  extrusion: 'INSERT.extrusion',
}
const MINSERT: ReferenceFields = {
  at: 'MINSERT.ins_pt',
  scale: 'MINSERT.scale',
  rotation: 'MINSERT.rotation',
  extrusion: 'MINSERT.extrusion',
}
const TABLE: ReferenceFields = {
  at: 'TABLE.ins_pt',
  scale: 'TABLE.scale',
  rotation: 'TABLE.rotation',
  extrusion: 'TABLE.extrusion',
}

/** Dimensions by type, and the field that names each one's graphics block. */
const DIMENSION_BLOCK = new Map<number, string>([
  [T.DWG_TYPE_DIMENSION_ORDINATE, 'DIMENSION_ORDINATE.block'],
  [T.DWG_TYPE_DIMENSION_LINEAR, 'DIMENSION_LINEAR.block'],
  [T.DWG_TYPE_DIMENSION_ALIGNED, 'DIMENSION_ALIGNED.block'],
  [T.DWG_TYPE_DIMENSION_ANG3PT, 'DIMENSION_ANG3PT.block'],
  [T.DWG_TYPE_DIMENSION_ANG2LN, 'DIMENSION_ANG2LN.block'],
  [T.DWG_TYPE_DIMENSION_RADIUS, 'DIMENSION_RADIUS.block'],
  [T.DWG_TYPE_DIMENSION_DIAMETER, 'DIMENSION_DIAMETER.block'],
  [T.DWG_TYPE_ARC_DIMENSION, 'ARC_DIMENSION.block'],
  [T.DWG_TYPE_LARGE_RADIAL_DIMENSION, 'LARGE_RADIAL_DIMENSION.block'],
])

/**
 * What the drawing view draws of a DWG: every model-space entity with its shape, layer and colour,
 * and the contents of every block definition a drawn reference places (nested ones and
 * dimensions' graphics included), each reported once. A reference that would place a definition
 * inside itself is drawn as nothing, which cuts the loop.
 */
export class PictureReader {
  private readonly ctx: DwgContext
  private readonly builder: DrawingBuilder
  private readonly parts: PictureParts
  private readonly shapes: ShapeReader
  private readonly colours: EntityColours
  /** Block records whose contents are reported, or being read. */
  private readonly reported = new Set<Ptr>()
  /** Block records whose contents are being read: a reference to one closes a loop. */
  private readonly reading = new Set<Ptr>()

  constructor(ctx: DwgContext, builder: DrawingBuilder, parts: PictureParts) {
    this.ctx = ctx
    this.builder = builder
    this.parts = parts
    this.shapes = new ShapeReader(ctx)
    this.colours = new EntityColours(ctx)
  }

  /** A model-space entity, with what the bill measured of it (null: nothing). */
  modelSpace(obj: Ptr, type: number, measured: DrawingEntity | null): void {
    this.builder.drawn(this.entity(obj, type, measured), measured)
  }

  private entity(obj: Ptr, type: number, measured: DrawingEntity | null): PictureEntity {
    const { wasm } = this.ctx
    const { layers, objects } = this.parts
    const tio = wasm.dwg_object_to_entity_tio(obj)
    const handle = measured?.handle ?? objects.handle(obj)
    if (!tio) return { handle, layer: '0', colour: 'bylayer', shape: null }
    return {
      handle,
      layer: measured?.layer ?? layers.nameOf(obj, tio),
      colour: this.colours.of(tio),
      shape: this.shape(tio, type, measured),
    }
  }

  /** Nothing to draw when its shape cannot be read: the bill's reading of the drawing goes on. */
  private shape(tio: Ptr, type: number, measured: DrawingEntity | null): Shape | null {
    try {
      switch (type) {
        case T.DWG_TYPE_INSERT:
          return this.reference(tio, this.parts.blocks.insertedBlock(tio, false), INSERT)
        case T.DWG_TYPE_MINSERT:
          return this.reference(tio, this.parts.blocks.insertedBlock(tio, true), MINSERT, true)
        case T.DWG_TYPE_TABLE:
          return this.reference(tio, this.blockOf(tio, 'TABLE.block_header'), TABLE)
      }
      const dimension = DIMENSION_BLOCK.get(type)
      if (dimension) return this.dimension(tio, dimension)
      return this.shapes.read(tio, type, measured)
    } catch (error) {
      if (this.ctx.verify) throw error
      return null
    }
  }

  /**
   * A block reference as placed (`header`: the record it places), in world coordinates; a MINSERT
   * with its grid (rare: read through the dynapi).
   */
  private reference(tio: Ptr, header: Ptr, keys: ReferenceFields, grid = false): Shape | null {
    const definition = this.definition(header)
    if (definition === null) return null
    const { lib, fields } = this.ctx
    const count = (field: string) =>
      Math.max(1, Number(lib.dwg_dynapi_entity_data(tio, field)) || 1)
    const spacing = (field: string) => Number(lib.dwg_dynapi_entity_data(tio, field)) || 0
    const shape: Shape = {
      kind: 'insert',
      definition,
      position: fields.point(tio, keys.at),
      scale: fields.point(tio, keys.scale),
      rotation: fields.f64(tio, keys.rotation),
      columns: grid ? count('num_cols') : 1,
      rows: grid ? count('num_rows') : 1,
      columnSpacing: grid ? spacing('col_spacing') : 0,
      rowSpacing: grid ? spacing('row_spacing') : 0,
    }
    return this.shapes.inOcs(tio, keys.extrusion, shape)
  }

  /** A dimension's graphics block, placed as it is (its contents are in world coordinates). */
  private dimension(tio: Ptr, blockField: string): Shape | null {
    const definition = this.definition(this.blockOf(tio, blockField))
    return definition === null ? null : placedAtOrigin(definition)
  }

  /** The block record a reference field (`key`) points to, or 0. */
  private blockOf(tio: Ptr, key: string): Ptr {
    const ref = this.ctx.fields.uint(tio, key, 4)
    return ref ? this.ctx.wasm.dwg_ref_get_object(ref) : 0
  }

  /**
   * The name of the definition a reference places, its contents reported first (once); null when
   * there is nothing to draw: no record, an attached drawing's, or one being read (a loop).
   */
  private definition(header: Ptr): string | null {
    const { records } = this.parts
    if (!records.isBlockRecord(header) || this.reading.has(header)) return null
    const record = records.get(header)
    if (!record.name || record.flag & XREF) return null
    if (!this.reported.has(header)) {
      this.reported.add(header)
      this.reading.add(header)
      let entities: PictureEntity[] = []
      try {
        entities = this.contents(header)
      } catch (error) {
        // A definition that cannot be read is drawn empty; every name given out has contents.
        if (this.ctx.verify) throw error
      } finally {
        this.reading.delete(header)
      }
      this.builder.blockContents(record.name, this.basePoint(header), entities)
    }
    return record.name
  }

  private contents(header: Ptr): PictureEntity[] {
    const { wasm } = this.ctx
    const out: PictureEntity[] = []
    for (const obj of this.parts.records.owned(header)) {
      const type = wasm.dwg_object_get_fixedtype(obj)
      if (isSubentity(type)) continue
      const measured = this.shapes.needsMeasured(type) ? this.parts.entities.read(obj, type) : null
      out.push(this.entity(obj, type, measured))
    }
    return out
  }

  private basePoint(header: Ptr): Point {
    const tio = this.ctx.wasm.dwg_object_to_object_tio(header)
    return tio ? this.ctx.fields.point(tio, 'BLOCK_HEADER.base_pt') : { x: 0, y: 0, z: 0 }
  }
}
