import { DxfParser } from '@mlightcad/dxf-json'
import {
  type Attribute,
  type Drawing,
  emptyDrawing,
  type InsertRef,
  isGraphicsBlock,
  skip,
} from '../drawing.ts'
import { BoqError } from '../errors.ts'
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
import { type DxfScan, type ScannedEntity, SUBENTITIES, scanDxf } from './dxf/scan.ts'
import { decodeDxf, isBinaryDxf, withEndBlockMarkers } from './dxf/text.ts'
import { skipReason } from './entity-kinds.ts'
import { attributeRecord, titleBlockScore } from './title-block.ts'

type DxfBlock = { name?: string; type?: number; xrefPath?: string; entities?: DxfEntity[] }
type DxfDocument = {
  header?: Record<string, unknown>
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
export function readDxf(bytes: Uint8Array): Drawing {
  if (isBinaryDxf(bytes))
    throw new BoqError('unsupported', 'Binary DXF is not supported: save the drawing as ASCII DXF.')
  let text = decodeDxf(bytes)
  const scan = scanDxf(text)
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
  const drawing = emptyDrawing('dxf', version)
  drawing.insunits = num(doc.header?.$INSUNITS)
  return new DxfWalker(drawing, doc, scan).read()
}

class DxfWalker {
  private readonly drawing: Drawing
  private readonly doc: DxfDocument
  private readonly scan: DxfScan
  /** The model space's block record handle; null in R12, which has no block records. */
  private readonly modelSpace: string | null
  private readonly dynamic: DynamicBlocks
  private readonly blocksByName = new Map<string, DxfBlock>()
  /** Definitions whose nested references are being read: meeting one again is a loop. */
  private readonly reading = new Set<string>()
  private readonly loopsWarned = new Set<string>()
  private readonly unreadable = new Map<string, number>()
  private titleScore = 0

  constructor(drawing: Drawing, doc: DxfDocument, scan: DxfScan) {
    this.drawing = drawing
    this.doc = doc
    this.scan = scan
    const records = [...scan.records]
    this.modelSpace = records.find(([, r]) => r.name.toUpperCase() === '*MODEL_SPACE')?.[0] ?? null
    this.dynamic = new DynamicBlocks(scan)
    for (const [name, block] of Object.entries(doc.blocks ?? {}))
      this.blocksByName.set(name.toUpperCase(), block)
  }

  read(): Drawing {
    const { drawing } = this
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
      if (/^[*$]PAPER_SPACE/i.test(name)) drawing.paperSpaceEntities += count
    }
    this.warn()
    return drawing
  }

  private warn(): void {
    const { drawing } = this
    if (this.unreadable.size > 0) {
      const total = [...this.unreadable.values()].reduce((a, b) => a + b, 0)
      const list = [...this.unreadable].map(([type, n]) => `${type} ×${n}`).join(', ')
      drawing.warnings.push(
        `${total} model-space entities could not be read from this DXF (${list}): they are listed as not measured.`,
      )
    }
    if (Object.keys(drawing.entityCounts).length === 0) {
      drawing.warnings.push(
        'Model space is empty: nothing to measure (the content may be in block definitions or paper space).',
      )
    }
  }

  /** Paper space by owner where block records name the model space, else by group 67 (R12). */
  private inPaperSpace(e: DxfEntity | null, scanned: ScannedEntity | null): boolean {
    const owner = String(e?.ownerBlockRecordSoftId ?? scanned?.owner ?? '').toUpperCase()
    if (owner && this.modelSpace) return owner !== this.modelSpace
    return Boolean(e?.isInPaperSpace || scanned?.paper)
  }

  private count(type: string): void {
    this.drawing.entityCounts[type] = (this.drawing.entityCounts[type] ?? 0) + 1
  }

  private entity(
    e: DxfEntity,
    scanned: ScannedEntity | null,
    attributes: Map<DxfEntity, Attribute[]>,
  ): void {
    const { drawing } = this
    if (this.inPaperSpace(e, scanned)) {
      drawing.paperSpaceEntities++
      if (e.type === 'INSERT')
        this.considerTitleBlock(this.effectiveName(e), attributes.get(e) ?? [])
      return
    }
    const typeName = dxfTypeName(e)
    this.count(typeName)
    if (e.type === 'INSERT') {
      if (this.xref(e)) return
      const ref = this.insert(e, attributes.get(e) ?? [], true)
      if (ref) drawing.inserts.push(ref)
      return
    }
    const measured = measurable(e)
    if (measured) drawing.entities.push(measured)
    else skip(drawing, typeName, skipReason(typeName))
  }

  /** An entity the parser left out: counted by its type; a HELIX is read from its pairs. */
  private unparsed(scanned: ScannedEntity): void {
    const { drawing } = this
    if (this.inPaperSpace(null, scanned)) {
      drawing.paperSpaceEntities++
      return
    }
    const { type } = scanned
    this.count(type)
    if (type === 'HELIX' && scanned.pairs) {
      drawing.entities.push(helixFromPairs(scanned.pairs, scanned.handle))
    } else if (MEASURED.has(type)) {
      this.unreadable.set(type, (this.unreadable.get(type) ?? 0) + 1)
      skip(drawing, type, UNREADABLE)
    } else skip(drawing, type, skipReason(type))
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
    this.drawing.xrefs.push({
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
      if (topLevel) {
        skip(
          this.drawing,
          `INSERT ${anonymousKind(name)}`,
          'anonymous block (hatch, dimension or group graphics of old releases): not a placed block',
        )
      }
      return null
    }
    this.readDefinition(definition, name)
    this.considerTitleBlock(name, attributes)
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

  /** The references inside a definition, read once; a definition met again while read loops. */
  private readDefinition(definition: string, name: string): void {
    const { nestedInserts, warnings } = this.drawing
    if (this.reading.has(definition)) {
      if (!this.loopsWarned.has(definition)) {
        this.loopsWarned.add(definition)
        warnings.push(
          `Block "${name}" contains itself; the reference that closes the loop is counted but not followed.`,
        )
      }
      return
    }
    if (nestedInserts.has(definition)) return
    this.reading.add(definition)
    nestedInserts.set(definition, this.nested(definition))
    this.reading.delete(definition)
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
    return (num(this.block(String(e.name ?? ''))?.type) & (XREF | OVERLAY)) !== 0
  }

  private considerTitleBlock(block: string, attributes: Attribute[]): void {
    const score = titleBlockScore(block, attributes)
    if (score > this.titleScore) {
      this.titleScore = score
      this.drawing.titleBlock = { block, attributes: attributeRecord(attributes) }
    }
  }
}

function extensionDictionary(e: DxfEntity): string {
  const group = e.extensions?.ACAD_XDICTIONARY ?? []
  return String(group.find((g) => g.code === 360)?.value ?? '')
}

function anonymousKind(name: string): string {
  const letter = name.charAt(1).toUpperCase()
  return letter ? `*${letter}` : '(unnamed)'
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
