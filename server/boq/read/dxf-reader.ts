import { DxfParser } from '@mlightcad/dxf-json'
import { BoqError } from '../model/boq-error.ts'
import { type Attribute, type Drawing, type InsertRef, isGraphicsBlock } from '../model/drawing.ts'
import { DrawingBuilder, type ReadOptions } from './drawing-builder.ts'
import { DynamicBlocks } from './dxf/dynamic.ts'
import {
  type DxfEntity,
  dxfTypeName,
  handleOf,
  helixFromPairs,
  measurable,
  num,
  pt,
} from './dxf/geometry.ts'
import { type DxfLayer, DxfPicture } from './dxf/picture.ts'
import { placedText } from './dxf/placed-text.ts'
import { type DxfScan, type ScannedEntity, SUBENTITIES, scanDxf } from './dxf/scan.ts'
import {
  decodeDxf,
  isBinaryDxf,
  withDataGroupsAsComments,
  withEndBlockMarkers,
} from './dxf/text.ts'

type DxfBlock = { name?: string; type?: number; xrefPath?: string; entities?: DxfEntity[] }
type DxfDocument = {
  header?: Record<string, unknown>
  tables?: { LAYER?: { entries?: DxfLayer[] } }
  blocks?: Record<string, DxfBlock>
  entities?: DxfEntity[]
}

/** Types this reader measures or counts: one the parser could not read is worth a warning. */
const MEASURED = new Set([
  'LINE',
  'ARC',
  'CIRCLE',
  'ELLIPSE',
  'LWPOLYLINE',
  'POLYLINE',
  'SPLINE',
  'HATCH',
  'MLINE',
  'INSERT',
])
const UNREADABLE = 'not readable in this DXF: not measured'
/** BLOCK flags: 4 an attached drawing (xref), 8 an overlay xref. */
const XREF = 4
const OVERLAY = 8

/** Reads an ASCII DXF into the drawing model; DXF angles are degrees, ellipses radians. */
export function readDxf(bytes: Uint8Array, options: ReadOptions = {}): Drawing {
  if (isBinaryDxf(bytes))
    throw new BoqError('unsupported', 'Binary DXF is not supported: save the drawing as ASCII DXF.')
  let text = decodeDxf(bytes)
  const scan = scanDxf(text)
  // The data groups first: their places are the scanned text's.
  text = withDataGroupsAsComments(text, scan.dataGroups102)
  if (scan.endBlockMarkerMissing) text = withEndBlockMarkers(text)
  let doc: DxfDocument
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
  const builder = new DrawingBuilder('dxf', version, options)
  builder.units(num(doc.header?.$INSUNITS))
  return new DxfWalker(builder, doc, scan).read()
}

class DxfWalker {
  private readonly builder: DrawingBuilder
  private readonly doc: DxfDocument
  private readonly scan: DxfScan
  /** The model space's block record handle; null in R12, which has no block records. */
  private readonly modelSpace: string | null
  private readonly dynamic: DynamicBlocks
  /** null: the picture is not wanted. */
  private readonly picture: DxfPicture | null
  private readonly blocksByName = new Map<string, DxfBlock>()
  private readonly unreadable = new Map<string, number>()

  constructor(builder: DrawingBuilder, doc: DxfDocument, scan: DxfScan) {
    this.builder = builder
    this.doc = doc
    this.scan = scan
    const records = [...scan.records]
    this.modelSpace = records.find(([, r]) => r.name.toUpperCase() === '*MODEL_SPACE')?.[0] ?? null
    this.dynamic = new DynamicBlocks(scan)
    for (const [name, block] of Object.entries(doc.blocks ?? {}))
      this.blocksByName.set(name.toUpperCase(), block)
    this.picture = builder.picture
      ? new DxfPicture(builder, {
          block: (name) => this.block(name),
          isXref: (name) => this.isXrefBlock(name),
        })
      : null
  }

  read(): Drawing {
    this.picture?.layers(this.doc.tables?.LAYER?.entries ?? [], this.scan.layerTrueColours)
    const all = this.doc.entities ?? []
    const attributes = attributesByInsert(all)
    // The parser's entities are the scanned ones minus the types it does not know: each scanned
    // one is found by its handle, or (R12, no handles) as the next of the same type in file order.
    const parsed = all.filter((e) => !SUBENTITIES.has(e.type))
    const byHandle = new Map<string, DxfEntity>()
    const unnamed: DxfEntity[] = []
    for (const e of parsed) {
      const handle = handleOf(e)
      if (handle && !byHandle.has(handle)) byHandle.set(handle, e)
      else unnamed.push(e)
    }
    const used = new Set<DxfEntity>()
    let next = 0
    for (const scanned of this.scan.entities) {
      const e = scanned.handle ? byHandle.get(scanned.handle) : unnamed[next]
      if (e && e.type === scanned.type && !used.has(e)) {
        used.add(e)
        if (!scanned.handle) next++
        this.entity(e, scanned, attributes)
      } else this.unparsed(scanned)
    }
    // Any the scan did not see (it should see them all) are still read.
    for (const e of parsed) if (!used.has(e)) this.entity(e, null, attributes)
    for (const [name, count] of this.scan.blockEntities) {
      // Layouts other than the active one keep their entities in their block definition.
      if (/^[*$]PAPER_SPACE/i.test(name)) this.builder.paperSpace(count)
    }
    this.warnUnreadable()
    this.picture?.finish()
    return this.builder.finish()
  }

  private warnUnreadable(): void {
    if (this.unreadable.size === 0) return
    const total = [...this.unreadable.values()].reduce((a, b) => a + b, 0)
    const list = [...this.unreadable].map(([type, n]) => `${type} ×${n}`).join(', ')
    this.builder.warn(
      `${total} model-space entities could not be read from this DXF (${list}): they are listed as not measured.`,
    )
  }

  /** Paper space by owner where block records name the model space, else by group 67 (R12). */
  private inPaperSpace(e: DxfEntity | null, scanned: ScannedEntity | null): boolean {
    const owner = String(e?.ownerBlockRecordSoftId ?? scanned?.owner ?? '').toUpperCase()
    if (owner && this.modelSpace) return owner !== this.modelSpace
    return Boolean(e?.isInPaperSpace || scanned?.paper)
  }

  private entity(
    e: DxfEntity,
    scanned: ScannedEntity | null,
    attributes: Map<DxfEntity, Attribute[]>,
  ): void {
    const { builder } = this
    if (this.inPaperSpace(e, scanned)) {
      builder.paperSpace(1)
      if (e.type === 'INSERT')
        builder.titleBlockCandidate(this.effectiveName(e), attributes.get(e) ?? [])
      return
    }
    const measured = e.type === 'INSERT' ? null : measurable(e)
    this.picture?.modelSpace(e, scanned, measured)
    const typeName = dxfTypeName(e)
    builder.count(typeName)
    if (e.type === 'INSERT') {
      if (this.xref(e)) return
      const ref = this.insert(e, attributes.get(e) ?? [], true)
      if (ref) builder.insert(ref)
      return
    }
    if (measured) builder.entity(measured)
    else builder.skip(typeName)
    if (e.type === 'TEXT' || e.type === 'MTEXT') {
      const text = placedText(e)
      if (text) builder.text(text)
    }
  }

  /** An entity the parser left out: counted by its type; a HELIX is read from its pairs. */
  private unparsed(scanned: ScannedEntity): void {
    const { builder } = this
    if (this.inPaperSpace(null, scanned)) {
      builder.paperSpace(1)
      return
    }
    const { type } = scanned
    const helix =
      type === 'HELIX' && scanned.pairs ? helixFromPairs(scanned.pairs, scanned.handle) : null
    this.picture?.unparsed(scanned, helix)
    builder.count(type)
    if (helix) {
      builder.entity(helix)
    } else if (MEASURED.has(type)) {
      this.unreadable.set(type, (this.unreadable.get(type) ?? 0) + 1)
      builder.skip(type, UNREADABLE)
    } else builder.skip(type)
  }

  private block(name: string): DxfBlock | undefined {
    return this.doc.blocks?.[name] ?? this.blocksByName.get(name.toUpperCase())
  }

  /** A reference to an attached drawing goes to `xrefs`: its content is not in this file. */
  private xref(e: DxfEntity): boolean {
    const name = String(e.name ?? '')
    const block = this.block(name)
    const flag = num(block?.type)
    if (!(flag & (XREF | OVERLAY))) return false
    const p = pt(e.insertionPoint)
    this.builder.xref({
      name,
      path: String(block?.xrefPath ?? ''),
      overlay: (flag & OVERLAY) !== 0,
      handle: handleOf(e),
      layer: String(e.layer ?? '0'),
      x: p.x,
      y: p.y,
    })
    return true
  }

  private effectiveName(e: DxfEntity): string {
    return this.dynamic.name(String(e.name ?? ''), extensionDictionary(e))
  }

  private insert(e: DxfEntity, attributes: Attribute[], topLevel: boolean): InsertRef | null {
    const definition = String(e.name ?? '')
    const name = this.effectiveName(e)
    if (!name || isGraphicsBlock(name)) {
      if (topLevel) this.builder.graphicsReference('INSERT', name)
      return null
    }
    this.builder.definition(definition, name, () => this.nested(definition))
    this.builder.titleBlockCandidate(name, attributes)
    const p = pt(e.insertionPoint)
    const visibility = this.dynamic.visibility(extensionDictionary(e))
    return {
      block: name,
      definition,
      handle: handleOf(e),
      properties: visibility === null ? {} : { visibility },
      layer: String(e.layer ?? '0'),
      count: Math.max(1, num(e.rowCount) || 1) * Math.max(1, num(e.columnCount) || 1),
      x: p.x,
      y: p.y,
      attributes,
    }
  }

  private nested(definition: string): InsertRef[] {
    const entities = this.block(definition)?.entities ?? []
    const attributes = attributesByInsert(entities)
    const out: InsertRef[] = []
    for (const e of entities) {
      if (e.type !== 'INSERT' || this.isXref(e)) continue
      const ref = this.insert(e, attributes.get(e) ?? [], false)
      if (ref) out.push(ref)
    }
    return out
  }

  private isXref(e: DxfEntity): boolean {
    return this.isXrefBlock(String(e.name ?? ''))
  }

  private isXrefBlock(name: string): boolean {
    return (num(this.block(name)?.type) & (XREF | OVERLAY)) !== 0
  }
}

function extensionDictionary(e: DxfEntity): string {
  const group = e.extensions?.ACAD_XDICTIONARY ?? []
  return String(group.find((g) => g.code === 360)?.value ?? '')
}

/**
 * Attributes by the INSERT they belong to. DXF orders them: the ATTRIBs after an INSERT, up to
 * its SEQEND (which dxf-json drops, so up to the next other entity), are its own; many writers
 * give them no owner handle. The owner handle is used for an ATTRIB found anywhere else.
 */
function attributesByInsert(entities: DxfEntity[]): Map<DxfEntity, Attribute[]> {
  const out = new Map<DxfEntity, Attribute[]>()
  const byHandle = new Map<string, DxfEntity>()
  let open: DxfEntity | null = null
  for (const e of entities) {
    if (e.type === 'INSERT') {
      open = e
      if (handleOf(e)) byHandle.set(handleOf(e), e)
      continue
    }
    if (e.type !== 'ATTRIB') {
      open = null
      continue
    }
    const owner = open ?? byHandle.get(String(e.ownerBlockRecordSoftId ?? '').toUpperCase())
    const tag = String(e.tag ?? '')
    if (!owner || !tag) continue
    const list = out.get(owner) ?? []
    list.push({ tag, value: String(e.text ?? '') })
    out.set(owner, list)
  }
  return out
}
