import type { PictureColour } from '../../model/picture.ts'
import { entityColour } from '../colours.ts'
import { CheckedRead } from './checked-read.ts'
import type { DwgContext, Ptr } from './context.ts'

/**
 * Where this build of LibreDWG keeps the colour in the common entity struct (Dwg_Object_Entity):
 * its index (a signed short) and, 8 bytes on, its rgb word. The dynapi does not describe the
 * common struct, so the offset is checked against the binding's getter before memory is trusted.
 */
const COLOUR = 48
const COLOUR_INDEX = COLOUR
const COLOUR_RGB = COLOUR + 8

/** The first byte of a colour's rgb word when the rest is a true colour (AutoCAD's "by colour"). */
const BY_COLOUR = 0xc2

/** A DWG colour (index, rgb word) as the picture gives it. */
export function dwgColour(index: number, rgb: number): PictureColour {
  return entityColour(index, rgb >>> 24 === BY_COLOUR ? rgb & 0xffffff : undefined)
}

type RawColour = { index: number; rgb: number }

/** Entities' colours, read from memory once the offset has held; through the getter until then. */
export class EntityColours {
  private readonly colours: CheckedRead<RawColour>
  private readonly fields: DwgContext['fields']

  constructor(ctx: DwgContext) {
    const { fields, lib } = ctx
    this.fields = fields
    this.colours = new CheckedRead<RawColour>(
      {
        name: 'entity colour',
        fromMemory: (entity) => ({
          index: fields.i16At(entity + COLOUR_INDEX),
          rgb: fields.u32At(entity + COLOUR_RGB),
        }),
        byGetter: (entity) => {
          try {
            const colour = lib.dwg_object_entity_get_color_object(entity)
            return colour ? { index: Number(colour.index), rgb: Number(colour.rgb) >>> 0 } : null
          } catch {
            return null
          }
        },
        same: (a, b) => a.index === b.index && a.rgb === b.rgb,
        show: ({ index, rgb }) => `${index}/${rgb}`,
      },
      ctx.verify,
    )
  }

  /** `tio` is the entity struct, whose first field is its common part. */
  of(tio: Ptr): PictureColour {
    const colour = this.colours.read(this.fields.u32At(tio))
    return colour ? dwgColour(colour.index, colour.rgb) : 'bylayer'
  }
}
