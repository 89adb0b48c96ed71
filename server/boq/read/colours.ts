import { createRequire } from 'node:module'
import type { PictureColour } from '../model/picture.ts'

// The package's ES build imports its own files without extensions, which Node cannot follow;
// its CommonJS build is whole.
const { AcCmColorUtil } = createRequire(import.meta.url)('@mlightcad/common') as {
  AcCmColorUtil: { getColorByIndex(index: number): number }
}

/** The colour drawn for an AutoCAD colour index 1–255 (0xRRGGBB); white for anything else. */
export function aciColour(index: number): number {
  return Number.isInteger(index) && index >= 1 && index <= 255
    ? AcCmColorUtil.getColorByIndex(index)
    : 0xffffff
}

/**
 * An entity's colour from what both formats store: a true colour (0xRRGGBB) when it has one,
 * else its colour index (0 by block, 256 or none by layer; negative is the layer's when off).
 */
export function entityColour(index: number | undefined, trueColour?: number): PictureColour {
  if (trueColour !== undefined && Number.isInteger(trueColour) && trueColour >= 0) {
    return trueColour & 0xffffff
  }
  if (index === 0) return 'byblock'
  if (index === undefined || index === 256 || index < 0 || index > 256) return 'bylayer'
  return aciColour(index)
}
