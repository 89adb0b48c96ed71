import { type DwgContext, nameOf, type Ptr } from './context.ts'
import type { R11Tables } from './r11.ts'

/** Where to look for the layer reference in the common entity struct: its first 128 words. */
const CANDIDATE_OFFSETS = 128
/** Where this build of LibreDWG keeps it: taken at the first entity that confirms it. */
const KNOWN_OFFSET = 164
/** Entities that must agree on one offset before it is used; after this many, give up. */
const SAMPLES_NEEDED = 3
const SAMPLES_MAX = 16

/**
 * Entity layer names. The layer reference is read from the common entity struct at an offset
 * the drawing's first entities confirm (the known one, else the one offset whose pointer leads
 * to the layer the getter gives); until then, and where it fails, through the getter. R11
 * entities name their layer by its index in the LAYER table.
 */
export class Layers {
  private readonly ctx: DwgContext
  private readonly r11: R11Tables | null
  private readonly names = new Map<Ptr, string>()
  /** The reference's offset (null: none found, undefined: still learning). */
  private offset: number | null | undefined
  private candidates: number[] | null = null
  private samples = 0

  constructor(ctx: DwgContext, r11: R11Tables | null) {
    this.ctx = ctx
    this.r11 = r11
  }

  /** The entity's layer name; `tio` is the entity struct, whose first field is its common part. */
  nameOf(obj: Ptr, tio: Ptr): string {
    const { fields, wasm } = this.ctx
    const entity = fields.u32At(tio)
    if (fields.verifying && entity !== wasm.dwg_object_to_entity(obj))
      throw new Error('entity struct: its parent is not the common entity')
    let layer = 0
    if (typeof this.offset === 'number') {
      const ref = fields.u32At(entity + this.offset)
      layer = ref ? fields.u32At(ref) : 0
      if (fields.verifying && layer !== this.byGetter(entity))
        throw new Error('entity layer: memory and getter differ')
    }
    if (!layer) layer = this.byGetter(entity)
    // Every entity names a layer: one that leads to none is a lost record.
    this.ctx.damage.layer(obj, layer !== 0)
    if (!layer) return '0'
    let name = this.names.get(layer)
    if (name === undefined) {
      name = nameOf(this.ctx, layer) || '0'
      this.names.set(layer, name)
    }
    return name
  }

  /** The layer object through the binding's getter (a JS object per call), teaching the offset. */
  private byGetter(entity: Ptr): Ptr {
    let ref: { obj?: number; r11_idx?: number } | null
    try {
      ref = this.ctx.lib.dwg_object_entity_get_layer_object_ref(entity) as typeof ref
    } catch {
      return 0
    }
    const layer = Number(ref?.obj) || 0
    if (!layer) return this.r11 && ref ? this.r11.layer(Number(ref.r11_idx) || 0) : 0
    if (this.offset === undefined) this.learn(entity, layer)
    return layer
  }

  private learn(entity: Ptr, layer: Ptr): void {
    const { fields } = this.ctx
    const matches = (off: number) => {
      const ref = fields.u32At(entity + off)
      return ref !== 0 && fields.u32At(ref) === layer
    }
    if (this.samples === 0 && matches(KNOWN_OFFSET)) {
      this.offset = KNOWN_OFFSET
      return
    }
    const previous = this.candidates ?? [...Array(CANDIDATE_OFFSETS).keys()].map((i) => i * 4)
    this.candidates = previous.filter(matches)
    this.samples++
    if (this.candidates.length === 0 || this.samples > SAMPLES_MAX) this.offset = null
    else if (this.candidates.length === 1 && this.samples >= SAMPLES_NEEDED)
      this.offset = this.candidates[0]
  }
}
