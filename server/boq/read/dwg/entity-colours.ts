import type { PictureColour } from '../../picture.ts'
import { entityColour } from '../colours.ts'
import type { DwgContext, Ptr } from './context.ts'

/**
 * Where this build of LibreDWG keeps the colour in the common entity struct (Dwg_Object_Entity):
 * its index (a signed short) and, 8 bytes on, its rgb word. The dynapi does not describe the
 * common struct, so the offset is checked against the binding's getter on a drawing's first
 * entities before memory is trusted.
 */
const COLOUR = 48
const COLOUR_INDEX = COLOUR
const COLOUR_RGB = COLOUR + 8
const SAMPLES_NEEDED = 3

/** The first byte of a colour's rgb word when the rest is a true colour (AutoCAD's "by colour"). */
const BY_COLOUR = 0xc2

/** A DWG colour (index, rgb word) as the picture gives it. */
export function dwgColour(index: number, rgb: number): PictureColour {
  return entityColour(index, rgb >>> 24 === BY_COLOUR ? rgb & 0xffffff : undefined)
}

/** Entities' colours, read from memory once the offset has held; through the getter until then. */
export class EntityColours {
  private readonly ctx: DwgContext
  /** Whether the offset held (undefined: not yet known). */
  private inMemory: boolean | undefined
  private samples = 0

  constructor(ctx: DwgContext) {
    this.ctx = ctx
  }

  /** `tio` is the entity struct, whose first field is its common part. */
  of(tio: Ptr): PictureColour {
    const { fields, verify } = this.ctx
    const entity = fields.u32At(tio)
    if (this.inMemory && !verify) return this.fromMemory(entity)
    const expected = this.byGetter(entity)
    if (this.inMemory === false || !expected)
      return expected ? dwgColour(expected.index, expected.rgb) : 'bylayer'
    const index = fields.i16At(entity + COLOUR_INDEX)
    const rgb = fields.u32At(entity + COLOUR_RGB)
    if (index === expected.index && rgb === expected.rgb >>> 0) {
      if (++this.samples >= SAMPLES_NEEDED) this.inMemory = true
    } else if (verify) {
      throw new Error(
        `entity colour: memory has ${index}/${rgb}, the getter ${expected.index}/${expected.rgb}`,
      )
    } else {
      this.inMemory = false
    }
    return dwgColour(expected.index, expected.rgb)
  }

  private fromMemory(entity: Ptr): PictureColour {
    const { fields } = this.ctx
    return dwgColour(fields.i16At(entity + COLOUR_INDEX), fields.u32At(entity + COLOUR_RGB))
  }

  private byGetter(entity: Ptr): { index: number; rgb: number } | null {
    try {
      const colour = this.ctx.lib.dwg_object_entity_get_color_object(entity)
      return colour ? { index: Number(colour.index), rgb: Number(colour.rgb) } : null
    } catch {
      return null
    }
  }
}
