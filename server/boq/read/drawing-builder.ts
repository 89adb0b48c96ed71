import type {
  Attribute,
  Drawing,
  DrawingEntity,
  InsertRef,
  PlacedText,
  XrefRef,
} from '../model/drawing.ts'
import type { PictureEntity } from '../model/picture.ts'
import type { Point } from '../model/primitives.ts'
import { skipReason } from './entity-kinds.ts'
import { attributeRecord, titleBlockScore } from './title-block.ts'

/** What a reader reports besides the bill's model. */
export type ReadOptions = {
  /**
   * Also the picture: what the drawing view draws (off by default: it costs the bill's reading
   * about a tenth of its time for nothing).
   */
  picture?: boolean
}

export const EMPTY_MODEL_SPACE =
  'Model space is empty: nothing to measure (the content may be in block definitions or paper space).'

/**
 * The one way a reader (DWG or DXF) makes its drawing model: the reader says what it found, the
 * builder decides what that means, so both formats give the same model for the same content.
 * One builder per drawing; `finish()` hands the drawing over.
 */
export class DrawingBuilder {
  private readonly drawing: Drawing
  /** Definitions whose nested references are being read: a reference to one closes a loop. */
  private readonly expanding = new Set<string>()
  private readonly loops = new Set<string>()
  private titleScore = 0
  /** Whether the reader reports the picture; without it `drawing.picture` stays empty. */
  readonly picture: boolean

  constructor(format: Drawing['format'], version: string, options: ReadOptions = {}) {
    this.picture = options.picture ?? false
    this.drawing = {
      format,
      version,
      insunits: 0,
      entities: [],
      inserts: [],
      nestedInserts: new Map(),
      xrefs: [],
      texts: [],
      entityCounts: {},
      paperSpaceEntities: 0,
      skipped: new Map(),
      warnings: [],
      titleBlock: null,
      picture: {
        layerColours: new Map(),
        hiddenLayers: new Set(),
        modelSpace: [],
        blocks: new Map(),
      },
    }
  }

  /** The drawing's INSUNITS (0: not set). */
  units(insunits: number): void {
    this.drawing.insunits = insunits
  }

  /** A model-space entity of this reader type name: every one is counted, measured or not. */
  count(type: string): void {
    const counts = this.drawing.entityCounts
    counts[type] = (counts[type] ?? 0) + 1
  }

  /** The geometry of a measured model-space entity. */
  entity(entity: DrawingEntity): void {
    this.drawing.entities.push(entity)
  }

  /** A model-space entity that is not measured, and why (by default: what its type is). */
  skip(type: string, reason = skipReason(type)): void {
    const entry = this.drawing.skipped.get(type)
    if (entry) entry.count += 1
    else this.drawing.skipped.set(type, { count: 1, reason })
  }

  /** A block reference placed in model space. */
  insert(ref: InsertRef): void {
    this.drawing.inserts.push(ref)
  }

  /**
   * A model-space reference (`kind`: INSERT or MINSERT) to an anonymous graphics block or to no
   * block: not a placed block, listed as skipped.
   */
  graphicsReference(kind: string, block: string): void {
    const letter = block.charAt(1).toUpperCase()
    this.skip(
      `${kind} ${letter ? `*${letter}` : '(unnamed)'}`,
      'anonymous block (hatch, dimension or group graphics of old releases): not a placed block',
    )
  }

  /** A model-space text (still listed as not measured by `skip`): a room's name, perhaps. */
  text(text: PlacedText): void {
    this.drawing.texts.push(text)
  }

  /** A reference to an attached drawing placed in model space. */
  xref(ref: XrefRef): void {
    this.drawing.xrefs.push(ref)
  }

  /** Entities found in paper space (layouts): counted, never measured. */
  paperSpace(count: number): void {
    this.drawing.paperSpaceEntities += count
  }

  /**
   * A block reference anywhere (model space, nested, paper space): the one most like a title
   * block is the drawing's; the first of equals stays.
   */
  titleBlockCandidate(block: string, attributes: Attribute[]): void {
    const score = titleBlockScore(block, attributes)
    if (score > this.titleScore) {
      this.titleScore = score
      this.drawing.titleBlock = { block, attributes: attributeRecord(attributes) }
    }
  }

  /**
   * The references inside the definition named `definition` (`block`: its effective name), read
   * by `read` the first time it is met. A definition met again while its own references are
   * being read contains itself: the loop is cut there and reported once. Definitions keep the
   * order they are first met in.
   */
  definition(definition: string, block: string, read: () => InsertRef[]): void {
    const { nestedInserts } = this.drawing
    if (nestedInserts.has(definition)) {
      if (this.expanding.has(definition) && !this.loops.has(definition)) {
        this.loops.add(definition)
        this.warn(
          `Block "${block}" contains itself; the reference that closes the loop is counted but not followed.`,
        )
      }
      return
    }
    nestedInserts.set(definition, []) // placeholder first: a reference to itself stops here
    this.expanding.add(definition)
    nestedInserts.set(definition, read())
    this.expanding.delete(definition)
  }

  /** A layer's colour (0xRRGGBB), and whether it is off or frozen (what is on it is not drawn). */
  layer(name: string, colour: number, hidden: boolean): void {
    const { picture } = this.drawing
    picture.layerColours.set(name, colour)
    if (hidden) picture.hiddenLayers.add(name)
  }

  /**
   * A model-space entity as the drawing view draws it (every one, drawn or not), with what the
   * bill measures of it (given its shape).
   */
  drawn(entity: PictureEntity, measured: DrawingEntity | null = null): void {
    this.drawing.picture.modelSpace.push(entity)
    if (measured) measured.shape = entity.shape
  }

  /** A block definition's contents as the drawing view draws them (its base point first). */
  blockContents(definition: string, base: Point, entities: PictureEntity[]): void {
    if (!this.drawing.picture.blocks.has(definition)) {
      this.drawing.picture.blocks.set(definition, { base, entities })
    }
  }

  /** A warning of the reader's own, kept in the order found. */
  warn(message: string): void {
    this.drawing.warnings.push(message)
  }

  /** The drawing, with the warnings that follow from what was found. */
  finish(): Drawing {
    const { drawing } = this
    if (Object.keys(drawing.entityCounts).length === 0) this.warn(EMPTY_MODEL_SPACE)
    return drawing
  }
}
