import type { Dwg_Color } from '@mlightcad/libredwg-web'
import { aciColour } from '../colours.ts'
import type { DrawingBuilder } from '../drawing-builder.ts'
import { type DwgContext, dynapiValue, headerValue, type Ptr } from './context.ts'

/** The first byte of a colour's rgb word: a true colour, or a colour index in its low byte. */
const BY_COLOUR = 0xc2
const BY_INDEX = 0xc3
/** LAYER flag bit 1: frozen. */
const FROZEN = 1

/**
 * Every layer's colour, and whether it is off or frozen, told to the builder. Layers are few: read
 * through the dynapi, from the LAYER table (every layer object when the table gives none).
 */
export function readLayerColours(ctx: DwgContext, builder: DrawingBuilder): void {
  for (const tio of layerStructs(ctx)) {
    const name = String(dynapiValue<string>(ctx, tio, 'name') ?? '') || '0'
    const colour = dynapiValue<Dwg_Color>(ctx, tio, 'color')
    const index = Number(colour?.index) || 0
    const hidden =
      index < 0 ||
      Boolean(dynapiValue<number>(ctx, tio, 'off')) ||
      Boolean(dynapiValue<number>(ctx, tio, 'frozen')) ||
      (Number(dynapiValue<number>(ctx, tio, 'flag')) & FROZEN) !== 0
    builder.layer(name, layerColour(index, Number(colour?.rgb) || 0), hidden)
  }
}

/**
 * A layer's colour: R2004+ keep it in the rgb word (a true colour, or the index in its low byte),
 * earlier releases in the index (negative when the layer is off).
 */
export function layerColour(index: number, rgb: number): number {
  const method = rgb >>> 24
  if (method === BY_COLOUR) return rgb & 0xffffff
  if (method === BY_INDEX) return aciColour(rgb & 0xff)
  return aciColour(Math.abs(index))
}

/** The LAYER table's records (object structs), or every LAYER object when the table has none. */
function layerStructs(ctx: DwgContext): Ptr[] {
  const { heap, wasm } = ctx
  const ref = Number(headerValue(ctx, 'LAYER_CONTROL_OBJECT')) || 0
  const control = ref ? wasm.dwg_ref_get_object(ref) : 0
  const controlTio = control ? wasm.dwg_object_to_object_tio(control) : 0
  const count = controlTio ? Number(dynapiValue<number>(ctx, controlTio, 'num_entries')) || 0 : 0
  const entries = controlTio ? Number(dynapiValue<Ptr>(ctx, controlTio, 'entries')) || 0 : 0
  const out: Ptr[] = []
  if (count && heap.has(entries, count * 4)) {
    for (let i = 0; i < count; i++) {
      const entry = heap.u32(entries + i * 4)
      const layer = entry ? wasm.dwg_ref_get_object(entry) : 0
      const tio = layer ? wasm.dwg_object_to_object_tio(layer) : 0
      if (tio) out.push(tio)
    }
  }
  return out.length > 0 ? out : ctx.lib.dwg_getall_LAYER(ctx.data)
}
