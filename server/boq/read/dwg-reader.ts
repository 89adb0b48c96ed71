import {
  type Dwg_HATCH_Path,
  dwgCodePageToEncoding,
  type LibreDwgEx,
  Dwg_Object_Type as T,
} from '@mlightcad/libredwg-web'
import {
  type Attribute,
  type Drawing,
  type DrawingEntity,
  emptyDrawing,
  type InsertRef,
  isAnonymousBlock,
  type Loop,
  type LoopEdge,
  type Point,
  skip,
  type Vertex,
} from '../drawing.ts'
import { BoqError } from '../errors.ts'
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

type Ptr = number

/** The module's own functions, called without the LibreDwg wrapper (a Proxy: two traps a call). */
type Wasm = Pick<
  LibreDwgEx,
  | 'get_first_owned_entity'
  | 'get_next_owned_entity'
  | 'get_first_owned_subentity'
  | 'get_next_owned_subentity'
  | 'dwg_object_get_fixedtype'
  | 'dwg_object_to_entity_tio'
  | 'dwg_object_to_object_tio'
  | 'dwg_ref_get_object'
  | 'dwg_object_get_dxfname'
  | 'dwg_get_object'
  | 'dwg_object_get_supertype'
  | 'dwg_entity_owner'
  | 'dwg_object_to_entity'
>

/** Decoders by code page, made once per thread. */
const decoders = new Map<string, TextDecoder>()

/**
 * Where the layer reference sits in LibreDWG's common entity struct, as learnt from earlier files
 * (a property of the build, not of the file; still checked on each file's first entity).
 */
let learntLayerOffset: number | null = null

/** Types whose DXF name varies from object to object (it is the class's name). */
const UNNAMED_TYPES = new Set<number>([
  T.DWG_TYPE_PROXY_ENTITY,
  T.DWG_TYPE_PROXY_OBJECT,
  T.DWG_TYPE_UNKNOWN_ENT,
  T.DWG_TYPE_UNKNOWN_OBJ,
])

function fatalText(code: number): string {
  return Object.entries(ERROR_NAMES)
    .filter(([bit]) => code & Number(bit))
    .map(([, name]) => name)
    .join(', ')
}

/**
 * Reads a DWG with LibreDWG's low-level calls, only what a BOQ needs (no whole-drawing convert()).
 * `lib` must be a fresh instance: one instance reused for a second file can crash.
 */
export function readDwg(
  lib: LibreDwgEx,
  bytes: Uint8Array,
  version: string,
  options: { verify?: boolean } = {},
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
  return new DwgWalker(lib, data, version, options.verify ?? false).read()
}

class DwgWalker {
  private readonly lib: LibreDwgEx
  private readonly data: Ptr
  private readonly drawing: Drawing
  private readonly fields: StructFields
  private readonly wasm: Wasm
  private readonly layerNames = new Map<Ptr, string>()
  private readonly blockNames = new Map<Ptr, string>()
  private readonly typeNames = new Map<number, string>()
  /** Where the layer reference sits in the common entity struct (found per file; null: unknown). */
  private layerOffset: number | null | undefined
  private layerCandidates: number[] | null = null
  private layerSamples = 0
  private titleScore = 0

  constructor(lib: LibreDwgEx, data: Ptr, version: string, verify: boolean) {
    this.lib = lib
    this.data = data
    this.drawing = emptyDrawing('dwg', version)
    this.fields = new StructFields(lib, verify)
    this.wasm = (lib as unknown as { wasmInstance: Wasm }).wasmInstance
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
    const { lib, data, drawing } = this
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
    this.readTitleBlockFrom(lib.dwg_paper_space_object(data))
    return drawing
  }

  private headerNumber(field: string): number {
    try {
      const value = this.lib.dwg_dynapi_header_value(this.data, field)
      return typeof value.data === 'number' ? value.data : 0
    } catch {
      return 0
    }
  }

  /** Model-space entities: the owned list, else (LibreDWG issue 1199) every entity owned by it. */
  private modelSpaceEntities(modelSpace: Ptr): Ptr[] {
    const { lib, data } = this
    const owned = modelSpace ? this.ownedEntities(modelSpace) : []
    if (owned.length > 0) return owned
    const msTio = modelSpace ? this.wasm.dwg_object_to_object_tio(modelSpace) : 0
    const found: Ptr[] = []
    const n = lib.dwg_get_num_objects(data)
    for (let i = 0; i < n; i++) {
      const obj = this.wasm.dwg_get_object(data, i)
      if (!obj || this.wasm.dwg_object_get_supertype(obj) !== 0) continue
      const type = this.wasm.dwg_object_get_fixedtype(obj)
      if (isSubentity(type)) continue
      const owner = this.wasm.dwg_entity_owner(this.wasm.dwg_object_to_entity_tio(obj))
      if (owner === msTio || (!msTio && !owner)) found.push(obj)
    }
    return found
  }

  private ownedEntities(blockHeader: Ptr): Ptr[] {
    const { lib } = this
    const out: Ptr[] = []
    let next = this.wasm.get_first_owned_entity(blockHeader)
    while (next && out.length < 10_000_000) {
      out.push(next)
      next = this.wasm.get_next_owned_entity(blockHeader, next)
    }
    if (out.length > 0) return out
    // Some writers leave the first/last entity links empty: the handle list still names them.
    const tio = this.wasm.dwg_object_to_object_tio(blockHeader)
    const count = Number(lib.dwg_dynapi_entity_data(tio, 'num_owned')) || 0
    const refs = lib.dwg_dynapi_entity_data(tio, 'entities') as Ptr
    if (!count || !refs) return out
    for (const ref of lib.dwg_ptr_to_object_ref_ptr_array(refs, count)) {
      const obj = this.wasm.dwg_ref_get_object(ref)
      if (obj) out.push(obj)
    }
    return out
  }

  /** `key` is 'TYPE.field' (a constant: the offset cache is keyed by it). */
  private f64(tio: Ptr, key: string, index = 0): number {
    return this.fields.f64(tio, key, index)
  }

  private point(tio: Ptr, key: string): Point {
    const { fields } = this
    return { x: fields.f64(tio, key, 0), y: fields.f64(tio, key, 1), z: fields.f64(tio, key, 2) }
  }

  private value<V>(tio: Ptr, field: string): V {
    return this.lib.dwg_dynapi_entity_data<V>(tio, field)
  }

  /** The entity's layer name; `tio` is the entity struct, whose first field is its common part. */
  private layerOf(obj: Ptr, tio: Ptr): string {
    const { fields } = this
    const entity = fields.u32At(tio)
    if (fields.verifying && entity !== this.wasm.dwg_object_to_entity(obj))
      throw new Error('entity struct: its parent is not the common entity')
    let layer = 0
    if (typeof this.layerOffset === 'number') {
      const ref = fields.u32At(entity + this.layerOffset)
      layer = ref ? fields.u32At(ref) : 0
      if (fields.verifying && layer !== this.layerByGetter(entity))
        throw new Error('entity layer: memory and getter differ')
    }
    if (!layer) layer = this.layerByGetter(entity)
    if (!layer) return '0'
    let name = this.layerNames.get(layer)
    if (name === undefined) {
      try {
        name = String(
          this.lib.dwg_dynapi_entity_data(this.wasm.dwg_object_to_object_tio(layer), 'name') ?? '0',
        )
      } catch {
        name = '0'
      }
      this.layerNames.set(layer, name)
    }
    return name
  }

  /**
   * The layer object through the binding's getter (a JS object per call). The first entities also
   * teach where the reference sits in the struct: the one offset whose pointer leads to it.
   */
  private layerByGetter(entity: Ptr): Ptr {
    let layer = 0
    try {
      layer = (this.lib.dwg_object_entity_get_layer_object_ref(entity)?.obj as Ptr) || 0
    } catch {
      return 0
    }
    if (this.layerOffset !== undefined || !layer) return layer
    const { fields } = this
    const matches = (off: number) => {
      const ref = fields.u32At(entity + off)
      return ref !== 0 && fields.u32At(ref) === layer
    }
    if (learntLayerOffset !== null && this.layerSamples === 0 && matches(learntLayerOffset)) {
      this.layerOffset = learntLayerOffset
      return layer
    }
    const previous = this.layerCandidates ?? [...Array(128).keys()].map((i) => i * 4)
    const candidates = previous.filter(matches)
    this.layerCandidates = candidates
    this.layerSamples++
    if (candidates.length === 0 || this.layerSamples > 16) this.layerOffset = null
    else if (candidates.length === 1 && this.layerSamples >= 3) {
      this.layerOffset = candidates[0]
      learntLayerOffset = candidates[0]
    }
    return layer
  }

  /** The DXF name by type: a type has one name, except proxies and unknown classes. */
  private typeName(obj: Ptr, type: number): string {
    const cached = this.typeNames.get(type)
    if (cached !== undefined && !this.fields.verifying) return cached
    const name = this.wasm.dwg_object_get_dxfname(obj) || 'UNKNOWN'
    if (cached !== undefined && cached !== name) throw new Error(`type ${type}: names differ`)
    if (!UNNAMED_TYPES.has(type)) this.typeNames.set(type, name)
    return name
  }

  private readEntity(obj: Ptr): void {
    const { drawing } = this
    const type = this.wasm.dwg_object_get_fixedtype(obj)
    const typeName = this.typeName(obj, type)
    drawing.entityCounts[typeName] = (drawing.entityCounts[typeName] ?? 0) + 1
    if (type === T.DWG_TYPE_INSERT || type === T.DWG_TYPE_MINSERT) {
      const ref = this.insert(obj, type, true)
      if (ref) drawing.inserts.push(ref)
      return
    }
    const entity = this.measurable(obj, type)
    if (entity) drawing.entities.push(entity)
    else if (entity === null) skip(drawing, typeName, skipReason(typeName))
  }

  /** The entity's geometry, or null when it is not measured, or undefined when skipped already. */
  private measurable(obj: Ptr, type: number): DrawingEntity | null | undefined {
    const tio = this.wasm.dwg_object_to_entity_tio(obj)
    if (!tio) return null
    switch (type) {
      case T.DWG_TYPE_LINE:
        return {
          type: 'line',
          layer: this.layerOf(obj, tio),
          a: this.point(tio, 'LINE.start'),
          b: this.point(tio, 'LINE.end'),
        }
      case T.DWG_TYPE_ARC:
        return {
          type: 'arc',
          layer: this.layerOf(obj, tio),
          radius: this.f64(tio, 'ARC.radius'),
          start: this.f64(tio, 'ARC.start_angle'),
          end: this.f64(tio, 'ARC.end_angle'),
        }
      case T.DWG_TYPE_CIRCLE:
        return {
          type: 'circle',
          layer: this.layerOf(obj, tio),
          radius: this.f64(tio, 'CIRCLE.radius'),
        }
      case T.DWG_TYPE_ELLIPSE:
        return {
          type: 'ellipse',
          layer: this.layerOf(obj, tio),
          center: this.point(tio, 'ELLIPSE.center'),
          major: this.point(tio, 'ELLIPSE.sm_axis'),
          ratio: this.f64(tio, 'ELLIPSE.axis_ratio'),
          start: this.f64(tio, 'ELLIPSE.start_angle'),
          end: this.f64(tio, 'ELLIPSE.end_angle'),
        }
      case T.DWG_TYPE_LWPOLYLINE:
        return this.lwpolyline(obj, tio)
      case T.DWG_TYPE_POLYLINE_2D:
      case T.DWG_TYPE_POLYLINE_3D:
        return this.heavyPolyline(obj, tio, type === T.DWG_TYPE_POLYLINE_3D)
      case T.DWG_TYPE_SPLINE:
        return this.spline(obj, tio)
      case T.DWG_TYPE_HATCH:
        return this.hatch(obj, tio)
      default:
        return null
    }
  }

  private lwpolyline(obj: Ptr, tio: Ptr): DrawingEntity {
    const { lib, fields } = this
    // Points (2 doubles each) and bulges straight from memory: no JS object per point on the way.
    const points = fields.uint(tio, 'LWPOLYLINE.points', 4)
    const count = points ? fields.uint(tio, 'LWPOLYLINE.num_points', 4) : 0
    const bulges = fields.uint(tio, 'LWPOLYLINE.bulges', 4)
    const bulgeCount = bulges ? fields.uint(tio, 'LWPOLYLINE.num_bulges', 4) : 0
    const flag = fields.uint(tio, 'LWPOLYLINE.flag', 2)
    const elevation = this.f64(tio, 'LWPOLYLINE.elevation')
    const xy = fields.f64Array(points, count * 2)
    const bulge = fields.f64Array(bulges, bulgeCount)
    const vertices: Vertex[] = new Array(count)
    for (let i = 0; i < count; i++) {
      vertices[i] = { x: xy[2 * i], y: xy[2 * i + 1], z: elevation, bulge: bulge[i] ?? 0 }
    }
    if (fields.verifying) {
      const expected = lib.dwg_ptr_to_point2d_array(points, count)
      const expectedBulges = bulgeCount ? lib.dwg_ptr_to_double_array(bulges, bulgeCount) : []
      vertices.forEach((v, i) => {
        if (v.x !== expected[i].x || v.y !== expected[i].y || v.bulge !== (expectedBulges[i] ?? 0))
          throw new Error(`LWPOLYLINE vertex ${i}: memory and getter differ`)
      })
    }
    // DWG's LWPOLYLINE flag: 512 = closed.
    return {
      type: 'polyline',
      layer: this.layerOf(obj, tio),
      vertices,
      closed: (flag & 512) !== 0,
      is3d: false,
    }
  }

  /**
   * Heavy (2D/3D) polylines: vertices come from the owned sub-entity walk, which keeps the last
   * vertex that the binding's own getters drop in R13–R2000 files.
   */
  private heavyPolyline(obj: Ptr, tio: Ptr, is3d: boolean): DrawingEntity {
    const { fields } = this
    const [flagKey, pointKey] = is3d
      ? ['VERTEX_3D.flag', 'VERTEX_3D.point']
      : ['VERTEX_2D.flag', 'VERTEX_2D.point']
    const vertices: Vertex[] = []
    let sub = this.wasm.get_first_owned_subentity(obj)
    let guard = 0
    while (sub && guard++ < 10_000_000) {
      const vtio = this.wasm.dwg_object_to_entity_tio(sub)
      const vflag = fields.uint(vtio, flagKey, 1)
      // Spline/curve-fit frame control points (16) are not on the curve.
      if (!(vflag & 16)) {
        vertices.push({
          x: fields.f64(vtio, pointKey, 0),
          y: fields.f64(vtio, pointKey, 1),
          z: fields.f64(vtio, pointKey, 2),
          bulge: is3d ? 0 : fields.f64(vtio, 'VERTEX_2D.bulge'),
        })
      }
      sub = this.wasm.get_next_owned_subentity(obj, sub)
    }
    // POLYLINE_2D's flag is a short, POLYLINE_3D's a byte.
    const flag = is3d
      ? fields.uint(tio, 'POLYLINE_3D.flag', 1)
      : fields.uint(tio, 'POLYLINE_2D.flag', 2)
    return {
      type: 'polyline',
      layer: this.layerOf(obj, tio),
      vertices,
      closed: (flag & 1) !== 0,
      is3d,
    }
  }

  private spline(obj: Ptr, tio: Ptr): DrawingEntity {
    const { lib } = this
    const degree = this.value<number>(tio, 'degree') || 0
    const knotCount = this.value<number>(tio, 'num_knots') || 0
    const ctrlCount = this.value<number>(tio, 'num_ctrl_pts') || 0
    const fitCount = this.value<number>(tio, 'num_fit_pts') || 0
    const knots = knotCount
      ? lib.dwg_ptr_to_double_array(this.value<Ptr>(tio, 'knots'), knotCount)
      : []
    const ctrl = ctrlCount
      ? lib.dwg_ptr_to_point4d_array(this.value<Ptr>(tio, 'ctrl_pts'), ctrlCount)
      : []
    const fit = fitCount
      ? lib.dwg_ptr_to_point3d_array(this.value<Ptr>(tio, 'fit_pts'), fitCount)
      : []
    const weighted = Boolean(this.value<number>(tio, 'weighted'))
    return {
      type: 'spline',
      layer: this.layerOf(obj, tio),
      degree,
      knots,
      control: ctrl.map((p) => ({ x: p.x, y: p.y, z: p.z })),
      weights: weighted ? ctrl.map((p) => p.w) : [],
      fit: fit.map((p) => ({ x: p.x, y: p.y, z: p.z ?? 0 })),
      startTangent: fitCount ? this.point(tio, 'SPLINE.beg_tan_vec') : null,
      endTangent: fitCount ? this.point(tio, 'SPLINE.end_tan_vec') : null,
    }
  }

  private hatch(obj: Ptr, tio: Ptr): DrawingEntity {
    const { lib } = this
    const count = this.value<number>(tio, 'num_paths') || 0
    const paths: Dwg_HATCH_Path[] = count
      ? lib.dwg_ptr_to_hatch_path_array(this.value<Ptr>(tio, 'paths'), count)
      : []
    const loops: Loop[] = []
    for (const path of paths) {
      if (!path.num_segs_or_paths) continue
      if (path.flag & 2) {
        loops.push({
          kind: 'polyline',
          vertices: path.polyline_paths.map((v) => ({
            x: v.point.x,
            y: v.point.y,
            z: 0,
            bulge: v.bulge || 0,
          })),
        })
        continue
      }
      const edges: LoopEdge[] = []
      for (const seg of path.segs) {
        const edge = hatchEdge(seg)
        if (edge) edges.push(edge)
      }
      if (edges.length) loops.push({ kind: 'edges', edges })
    }
    return {
      type: 'hatch',
      layer: this.layerOf(obj, tio),
      loops,
      style: this.value<number>(tio, 'style') || 0,
    }
  }

  private blockName(blockHeader: Ptr): string {
    let name = this.blockNames.get(blockHeader)
    if (name !== undefined) return name
    const { lib } = this
    const tio = this.wasm.dwg_object_to_object_tio(blockHeader)
    name = String(
      lib.dwg_entity_block_header_get_block(tio).name ||
        lib.dwg_dynapi_entity_data(tio, 'name') ||
        '',
    )
    if (name.toUpperCase().startsWith('*U')) name = this.dynamicBlockName(blockHeader) ?? name
    this.blockNames.set(blockHeader, name)
    return name
  }

  /** A dynamic block's anonymous *U block names its definition in EED AcDbBlockRepBTag (1005). */
  private dynamicBlockName(blockHeader: Ptr): string | null {
    const { lib, data } = this
    try {
      const eed = lib.dwg_object_entity_get_xdata(
        lib.dwg_object_to_object(blockHeader),
      ) as unknown as {
        appName: string
        value: { code?: number; value: unknown }[]
      }[]
      for (const app of eed ?? []) {
        if (app.appName !== 'AcDbBlockRepBTag') continue
        for (const item of app.value) {
          if (item.code !== 1005) continue
          const handle =
            typeof item.value === 'string'
              ? BigInt(`0x${item.value}`)
              : BigInt(item.value as number)
          const target = lib.dwg_resolve_handle(data, handle)
          if (target && target !== blockHeader) {
            const tio = this.wasm.dwg_object_to_object_tio(target)
            const name = lib.dwg_entity_block_header_get_block(tio).name
            if (name && !name.startsWith('*')) return name
          }
        }
      }
    } catch {
      // No EED, or a handle that does not resolve: keep the anonymous name.
    }
    return null
  }

  private insert(obj: Ptr, type: number, topLevel: boolean): InsertRef | null {
    const { drawing } = this
    const tio = this.wasm.dwg_object_to_entity_tio(obj)
    const minsert = type === T.DWG_TYPE_MINSERT
    const typeName = minsert ? 'MINSERT' : 'INSERT'
    const headerRef = this.fields.uint(
      tio,
      minsert ? 'MINSERT.block_header' : 'INSERT.block_header',
      4,
    )
    const header = headerRef ? this.wasm.dwg_ref_get_object(headerRef) : 0
    const name = header
      ? this.blockName(header)
      : String(this.value<string>(tio, 'block_name') ?? '')
    if (!name || isAnonymousBlock(name)) {
      if (!topLevel) return null
      skip(
        drawing,
        `${typeName} ${anonymousKind(name)}`,
        'anonymous block (hatch, dimension or group graphics of old releases): not a placed block',
      )
      return null
    }
    const count =
      type === T.DWG_TYPE_MINSERT
        ? Math.max(1, this.value<number>(tio, 'num_rows') || 1) *
          Math.max(1, this.value<number>(tio, 'num_cols') || 1)
        : 1
    if (header && !drawing.nestedInserts.has(name)) {
      drawing.nestedInserts.set(name, []) // placeholder first: a block that contains itself stops here
      drawing.nestedInserts.set(name, this.nestedInserts(header))
    }
    const attributes = this.attributes(obj)
    this.considerTitleBlock(name, attributes)
    return {
      block: name,
      layer: this.layerOf(obj, tio),
      count,
      x: this.f64(tio, minsert ? 'MINSERT.ins_pt' : 'INSERT.ins_pt', 0),
      y: this.f64(tio, minsert ? 'MINSERT.ins_pt' : 'INSERT.ins_pt', 1),
      attributes,
    }
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
      const type = this.wasm.dwg_object_get_fixedtype(obj)
      if (type !== T.DWG_TYPE_INSERT && type !== T.DWG_TYPE_MINSERT) continue
      const ref = this.insert(obj, type, false)
      if (ref) out.push(ref)
    }
    return out
  }

  private attributes(obj: Ptr): Attribute[] {
    const out: Attribute[] = []
    // The owned sub-entity walk finds ATTRIBs in every release (the binding's getter misses R2000's).
    const attribs: Ptr[] = []
    try {
      let sub = this.wasm.get_first_owned_subentity(obj)
      while (sub && attribs.length < 100_000) {
        attribs.push(sub)
        sub = this.wasm.get_next_owned_subentity(obj, sub)
      }
    } catch {
      return out
    }
    for (const attrib of attribs) {
      if (this.wasm.dwg_object_get_fixedtype(attrib) !== T.DWG_TYPE_ATTRIB) continue
      const tio = this.wasm.dwg_object_to_entity_tio(attrib)
      const tag = String(this.value<string>(tio, 'tag') ?? '')
      if (tag) out.push({ tag, value: String(this.value<string>(tio, 'text_value') ?? '') })
    }
    return out
  }

  private readTitleBlockFrom(space: Ptr): void {
    if (!space) return

    try {
      for (const obj of this.ownedEntities(space)) {
        if (this.wasm.dwg_object_get_fixedtype(obj) !== T.DWG_TYPE_INSERT) continue
        const tio = this.wasm.dwg_object_to_entity_tio(obj)
        const headerRef = this.value<Ptr>(tio, 'block_header')
        const header = headerRef ? this.wasm.dwg_ref_get_object(headerRef) : 0
        if (!header) continue
        this.considerTitleBlock(this.blockName(header), this.attributes(obj))
      }
    } catch {
      // Paper space is only looked at for a title block; a failure there costs nothing else.
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

type HatchSeg = Dwg_HATCH_Path['segs'][number]

function hatchEdge(seg: HatchSeg): LoopEdge | null {
  const p = (v: { x: number; y: number } | undefined): Point => ({
    x: v?.x ?? 0,
    y: v?.y ?? 0,
    z: 0,
  })
  switch (seg.curve_type) {
    case 1:
      return { kind: 'line', a: p(seg.first_endpoint), b: p(seg.second_endpoint) }
    case 2:
      return {
        kind: 'arc',
        center: p(seg.center),
        radius: seg.radius,
        start: seg.start_angle,
        end: seg.end_angle,
        ccw: Boolean(seg.is_ccw),
      }
    case 3:
      return {
        kind: 'ellipse',
        center: p(seg.center),
        major: p(seg.endpoint),
        ratio: seg.minor_major_ratio,
        start: seg.start_angle,
        end: seg.end_angle,
        ccw: Boolean(seg.is_ccw),
      }
    case 4:
      return {
        kind: 'spline',
        spline: {
          degree: seg.degree,
          knots: seg.knots ?? [],
          control: (seg.control_points ?? []).map((c) => ({ x: c.x, y: c.y, z: 0 })),
          weights: seg.is_rational ? (seg.control_points ?? []).map((c) => c.w ?? 1) : [],
          fit: (seg.fitpts ?? []).map((f) => ({ x: f.x, y: f.y, z: 0 })),
        },
      }
    default:
      return null
  }
}
