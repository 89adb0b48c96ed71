import type { LibreDwgEx } from '@mlightcad/libredwg-web'
import type { Drawing } from '../drawing.ts'
import { DrawingBuilder, type ReadOptions } from './drawing-builder.ts'
import { BlockRecords } from './dwg/block-records.ts'
import { BlockReader } from './dwg/blocks.ts'
import { dwgContext, headerValue, type Ptr } from './dwg/context.ts'
import { DynamicBlocks, NAME_ROUTES, type NameRoute } from './dwg/dynamic-blocks.ts'
import { EntityReader } from './dwg/entities.ts'
import { readLayerColours } from './dwg/layer-colours.ts'
import { Layers } from './dwg/layers.ts'
import { readModelSpace } from './dwg/model-space.ts'
import { ObjectLayout } from './dwg/objects.ts'
import { assertHasObjects, decodeInCodePage, openDwg } from './dwg/open.ts'
import { readPaperSpace } from './dwg/paper-space.ts'
import { PictureReader } from './dwg/picture.ts'
import { R11Tables } from './dwg/r11.ts'

/** R11/R12: table references by index, no owner links (detect.ts's version string). */
const R11 = 'AC1009'

export type DwgReadOptions = ReadOptions & {
  /** Compare every direct memory read with the binding's getter (tests). */
  verify?: boolean
  /** Where dynamic block names are looked for (both by default; tests try each alone). */
  dynamicRoutes?: readonly NameRoute[]
}

/**
 * Reads a DWG with LibreDWG's low-level calls, only what a BOQ and its drawing view need (no
 * whole-drawing convert()).
 * `lib` must be in a fresh state (a new instance, or a reset one): an instance carried
 * into a second file as it was left can crash.
 */
export function readDwg(
  lib: LibreDwgEx,
  bytes: Uint8Array,
  version: string,
  options: DwgReadOptions = {},
): Drawing {
  return walkDwg(lib, openDwg(lib, bytes), version, options)
}

/**
 * The drawing model of a drawing LibreDWG has read already (`data` is its Dwg_Data). Everything
 * the walk learns or caches belongs to this call; the instance's text decoder is put back after.
 */
export function walkDwg(
  lib: LibreDwgEx,
  data: Ptr,
  version: string,
  options: DwgReadOptions = {},
): Drawing {
  const restoreDecoder = decodeInCodePage(lib, data)
  try {
    assertHasObjects(lib, data)
    const ctx = dwgContext(lib, data, options.verify ?? false)
    const builder = new DrawingBuilder('dwg', version, options)
    const insunits = headerValue(ctx, 'INSUNITS')
    builder.units(typeof insunits === 'number' ? insunits : 0)
    const objects = new ObjectLayout(ctx)
    const records = new BlockRecords(ctx)
    const r11 = version === R11 ? new R11Tables(ctx, objects) : null
    const layers = new Layers(ctx, r11)
    const dynamic = new DynamicBlocks(ctx, records, options.dynamicRoutes ?? NAME_ROUTES)
    const blocks = new BlockReader(ctx, builder, { records, dynamic, layers, objects, r11 })
    const entities = new EntityReader(ctx, layers, objects, r11)
    const picture = builder.picture
      ? new PictureReader(ctx, builder, { records, blocks, entities, layers, objects })
      : null
    if (picture) readLayerColours(ctx, builder)
    const modelSpace = lib.dwg_model_space_object(data)
    readModelSpace(ctx, builder, { records, blocks, entities, picture }, modelSpace)
    readPaperSpace(ctx, builder, { records, blocks }, modelSpace, lib.dwg_paper_space_object(data))
    return builder.finish()
  } finally {
    restoreDecoder()
  }
}
