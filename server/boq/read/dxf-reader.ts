import { DxfParser } from '@mlightcad/dxf-json'
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
import { attributeRecord, titleBlockScore } from './title-block.ts'

const DEG = Math.PI / 180

// dxf-json's output, only as far as this reader looks at it.
type Xy = { x?: number; y?: number; z?: number }
type DxfEntity = Record<string, unknown> & {
  type: string
  layer?: string
  handle?: string
  ownerBlockRecordSoftId?: string
  inPaperSpace?: boolean
}
type DxfDocument = {
  header?: Record<string, unknown>
  tables?: { BLOCK_RECORD?: { entries?: { handle?: string; name?: string }[] } }
  blocks?: Record<string, { name?: string; entities?: DxfEntity[] }>
  entities?: DxfEntity[]
}

const pt = (p: unknown): Point => {
  const v = (p ?? {}) as Xy
  return { x: Number(v.x) || 0, y: Number(v.y) || 0, z: Number(v.z) || 0 }
}
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0)

/** Reads an ASCII (or binary) DXF into the drawing model; DXF angles are degrees, ellipses radians. */
export function readDxf(bytes: Uint8Array): Drawing {
  let doc: DxfDocument
  const text = new TextDecoder('utf-8').decode(bytes)
  try {
    doc = new DxfParser().parseSync(text) as unknown as DxfDocument
  } catch (error) {
    throw new BoqError(
      'corrupt',
      `Truncated or corrupt DXF (${error instanceof Error ? error.message : String(error)}).`,
    )
  }
  if (!doc || !Array.isArray(doc.entities))
    throw new BoqError('corrupt', 'Truncated or corrupt DXF (no ENTITIES section).')
  const version = String(doc.header?.$ACADVER ?? 'DXF')
  const drawing = emptyDrawing('dxf', version)
  drawing.insunits = num(doc.header?.$INSUNITS)
  return new DxfWalker(drawing, doc, text).read()
}

class DxfWalker {
  private readonly drawing: Drawing
  private readonly doc: DxfDocument
  private readonly modelSpace: string | null
  private readonly realNames: Map<string, string>
  private titleScore = 0

  constructor(drawing: Drawing, doc: DxfDocument, text: string) {
    this.drawing = drawing
    this.doc = doc
    const records = doc.tables?.BLOCK_RECORD?.entries ?? []
    this.modelSpace = records.find((r) => r.name?.toUpperCase() === '*MODEL_SPACE')?.handle ?? null
    this.realNames = dynamicBlockNames(text, records)
  }

  read(): Drawing {
    const entities = this.doc.entities ?? []
    const attribs = new Map<string, Attribute[]>()
    for (const e of entities) {
      if (e.type === 'ATTRIB' && e.ownerBlockRecordSoftId) {
        const list = attribs.get(e.ownerBlockRecordSoftId) ?? []
        list.push({ tag: String(e.tag ?? ''), value: String(e.text ?? '') })
        attribs.set(e.ownerBlockRecordSoftId, list)
      }
    }
    for (const e of entities) {
      if (e.type === 'ATTRIB' || e.type === 'SEQEND' || e.type === 'VERTEX') continue
      const paper =
        e.ownerBlockRecordSoftId && this.modelSpace
          ? e.ownerBlockRecordSoftId !== this.modelSpace
          : Boolean(e.inPaperSpace)
      if (paper) {
        if (e.type === 'INSERT')
          this.considerTitleBlock(this.effectiveName(e), attribs.get(e.handle ?? '') ?? [])
        continue
      }
      const typeName = dxfTypeName(e)
      this.drawing.entityCounts[typeName] = (this.drawing.entityCounts[typeName] ?? 0) + 1
      if (e.type === 'INSERT') {
        const ref = this.insert(e, attribs.get(e.handle ?? '') ?? [], true)
        if (ref) this.drawing.inserts.push(ref)
        continue
      }
      const measured = measurable(e)
      if (measured) this.drawing.entities.push(measured)
      else skip(this.drawing, typeName, skipReason(typeName))
    }
    return this.drawing
  }

  private effectiveName(e: DxfEntity): string {
    const name = String(e.name ?? '')
    return this.realNames.get(name.toUpperCase()) ?? name
  }

  private insert(e: DxfEntity, attributes: Attribute[], topLevel: boolean): InsertRef | null {
    const name = this.effectiveName(e)
    if (!name || isAnonymousBlock(name)) {
      if (topLevel) {
        skip(
          this.drawing,
          `INSERT *${name.charAt(1).toUpperCase()}`,
          'anonymous block (hatch, dimension or group graphics of old releases): not a placed block',
        )
      }
      return null
    }
    if (!this.drawing.nestedInserts.has(name)) {
      this.drawing.nestedInserts.set(name, [])
      this.drawing.nestedInserts.set(name, this.nested(String(e.name ?? '')))
    }
    this.considerTitleBlock(name, attributes)
    const p = pt(e.insertionPoint)
    return {
      block: name,
      layer: String(e.layer ?? '0'),
      count: Math.max(1, num(e.rowCount) || 1) * Math.max(1, num(e.columnCount) || 1),
      x: p.x,
      y: p.y,
      attributes,
    }
  }

  private nested(blockName: string): InsertRef[] {
    const block = this.doc.blocks?.[blockName]
    if (!block?.entities) return []
    const attribs = new Map<string, Attribute[]>()
    for (const e of block.entities) {
      if (e.type === 'ATTRIB' && e.ownerBlockRecordSoftId) {
        const list = attribs.get(e.ownerBlockRecordSoftId) ?? []
        list.push({ tag: String(e.tag ?? ''), value: String(e.text ?? '') })
        attribs.set(e.ownerBlockRecordSoftId, list)
      }
    }
    const out: InsertRef[] = []
    for (const e of block.entities) {
      if (e.type !== 'INSERT') continue
      const ref = this.insert(e, attribs.get(e.handle ?? '') ?? [], false)
      if (ref) out.push(ref)
    }
    return out
  }

  private considerTitleBlock(block: string, attributes: Attribute[]): void {
    const score = titleBlockScore(block, attributes)
    if (score > this.titleScore) {
      this.titleScore = score
      this.drawing.titleBlock = { block, attributes: attributeRecord(attributes) }
    }
  }
}

/**
 * Anonymous *U blocks of dynamic block references → the real block's name. dxf-json keeps no
 * extended data of BLOCK_RECORDs, so the TABLES section is scanned for AcDbBlockRepBTag's 1005.
 */
function dynamicBlockNames(
  text: string,
  records: { handle?: string; name?: string }[],
): Map<string, string> {
  const out = new Map<string, string>()
  if (!text.includes('AcDbBlockRepBTag')) return out
  const byHandle = new Map(
    records.map((r) => [String(r.handle ?? '').toUpperCase(), String(r.name ?? '')]),
  )
  const lines = text.split(/\r?\n/)
  let name = ''
  let inRecord = false
  let inTag = false
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const code = lines[i].trim()
    const value = lines[i + 1].trim()
    if (code === '0') {
      inRecord = value === 'BLOCK_RECORD'
      inTag = false
      name = ''
      if (value === 'ENDSEC' && out.size > 0) continue
    } else if (inRecord && code === '2') name = value
    else if (inRecord && code === '1001') inTag = value === 'AcDbBlockRepBTag'
    else if (inRecord && inTag && code === '1005' && name.startsWith('*')) {
      const real = byHandle.get(value.toUpperCase())
      if (real && !real.startsWith('*')) out.set(name.toUpperCase(), real)
    }
  }
  return out
}

/** Geometry of a measurable entity; null when the type is not measured. */
function measurable(e: DxfEntity): DrawingEntity | null {
  const layer = String(e.layer ?? '0')
  switch (e.type) {
    case 'LINE':
      return { type: 'line', layer, a: pt(e.startPoint), b: pt(e.endPoint) }
    case 'ARC':
      return {
        type: 'arc',
        layer,
        radius: num(e.radius),
        start: num(e.startAngle) * DEG,
        end: num(e.endAngle) * DEG,
      }
    case 'CIRCLE':
      return { type: 'circle', layer, radius: num(e.radius) }
    case 'ELLIPSE':
      return {
        type: 'ellipse',
        layer,
        center: pt(e.center),
        major: pt(e.majorAxisEndPoint),
        ratio: num(e.axisRatio),
        start: num(e.startAngle),
        end: num(e.endAngle),
      }
    case 'LWPOLYLINE': {
      const elevation = num(e.elevation)
      const vertices = ((e.vertices as (Xy & { bulge?: number })[]) ?? []).map((v) => ({
        x: num(v.x),
        y: num(v.y),
        z: elevation,
        bulge: num(v.bulge),
      }))
      return { type: 'polyline', layer, vertices, closed: (num(e.flag) & 1) !== 0, is3d: false }
    }
    case 'POLYLINE': {
      const flag = num(e.flag)
      // 16 = 3D mesh, 64 = polyface mesh: surfaces, not linework.
      if (flag & (16 | 64)) return null
      const vertices: Vertex[] = []
      for (const v of (e.vertices as (Xy & { bulge?: number; flag?: number })[]) ?? []) {
        if (num(v.flag) & 16) continue // spline frame control point
        vertices.push({ x: num(v.x), y: num(v.y), z: num(v.z), bulge: num(v.bulge) })
      }
      return { type: 'polyline', layer, vertices, closed: (flag & 1) !== 0, is3d: (flag & 8) !== 0 }
    }
    case 'SPLINE': {
      const control = ((e.controlPoints as Xy[]) ?? []).map(pt)
      const weights = Array.isArray(e.weights) ? (e.weights as number[]) : []
      return {
        type: 'spline',
        layer,
        degree: num(e.degree),
        knots: (e.knots as number[]) ?? [],
        control,
        weights: weights.length === control.length ? weights : [],
        fit: ((e.fitPoints as Xy[]) ?? []).map(pt),
        startTangent: e.startTangent ? pt(e.startTangent) : null,
        endTangent: e.endTangent ? pt(e.endTangent) : null,
      }
    }
    case 'HATCH':
      return { type: 'hatch', layer, loops: hatchLoops(e.boundaryPaths), style: num(e.hatchStyle) }
    default:
      return null
  }
}

/** Heavy polylines under the names the DWG reader gives them, so both count alike. */
function dxfTypeName(e: DxfEntity): string {
  if (e.type !== 'POLYLINE') return e.type
  const flag = num(e.flag)
  if (flag & 64) return 'POLYLINE_PFACE'
  if (flag & 16) return 'POLYLINE_MESH'
  return flag & 8 ? 'POLYLINE_3D' : 'POLYLINE_2D'
}

type DxfEdge = Record<string, unknown> & { type: number }

function hatchLoops(paths: unknown): Loop[] {
  const loops: Loop[] = []
  for (const path of (paths as Record<string, unknown>[]) ?? []) {
    if (num(path.boundaryPathTypeFlag) & 2) {
      const vertices = ((path.vertices as (Xy & { bulge?: number })[]) ?? []).map((v) => ({
        x: num(v.x),
        y: num(v.y),
        z: 0,
        bulge: num(v.bulge),
      }))
      if (vertices.length) loops.push({ kind: 'polyline', vertices })
      continue
    }
    const edges: LoopEdge[] = []
    for (const edge of (path.edges as DxfEdge[]) ?? []) {
      const converted = hatchEdge(edge)
      if (converted) edges.push(converted)
    }
    if (edges.length) loops.push({ kind: 'edges', edges })
  }
  return loops
}

function hatchEdge(edge: DxfEdge): LoopEdge | null {
  switch (edge.type) {
    case 1:
      return { kind: 'line', a: pt(edge.start), b: pt(edge.end) }
    case 2:
      return {
        kind: 'arc',
        center: pt(edge.center),
        radius: num(edge.radius),
        start: num(edge.startAngle) * DEG,
        end: num(edge.endAngle) * DEG,
        ccw: edge.isCCW !== false && edge.isCCW !== 0,
      }
    case 3:
      return {
        kind: 'ellipse',
        center: pt(edge.center),
        major: pt(edge.end),
        ratio: num(edge.lengthOfMinorAxis),
        start: num(edge.startAngle) * DEG,
        end: num(edge.endAngle) * DEG,
        ccw: edge.isCCW !== false && edge.isCCW !== 0,
      }
    case 4: {
      const control = (edge.controlPoints as (Xy & { weight?: number })[]) ?? []
      const rational = control.some((c) => typeof c.weight === 'number')
      return {
        kind: 'spline',
        spline: {
          degree: num(edge.degree),
          knots: (edge.knots as number[]) ?? [],
          control: control.map(pt),
          weights: rational
            ? control.map((c) => (typeof c.weight === 'number' ? c.weight : 1))
            : [],
          fit: ((edge.fitDatum as Xy[]) ?? []).map(pt),
        },
      }
    }
    default:
      return null
  }
}
