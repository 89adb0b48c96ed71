import type { LibreDwgEx } from '@mlightcad/libredwg-web'
import { BoqError } from '../model/boq-error.ts'
import type { Drawing } from '../model/drawing.ts'
import { DrawingBuilder, type ReadOptions } from './drawing-builder.ts'
import { BlockRecords } from './dwg/block-records.ts'
import { BlockReader } from './dwg/blocks.ts'
import { dwgContext, headerValue, type Ptr } from './dwg/context.ts'
import { damageWarning, type FileFindings } from './dwg/damage.ts'
import { DynamicBlocks, NAME_ROUTES, type NameRoute } from './dwg/dynamic-blocks.ts'
import { EntityReader } from './dwg/entities.ts'
import { checkFile } from './dwg/file-check.ts'
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
  // The file's own check first: LibreDWG may never come back from some breaks.
  const file = checkFile(bytes, version)
  if (file?.broken) throw new BoqError('corrupt', `Truncated or corrupt (${file.broken}).`)
  const { data, flags } = openDwg(lib, bytes)
  const objects = lib.dwg_get_num_objects(data)
  return walkDwg(lib, data, version, options, { flags, file, objects })
}

/**
 * The drawing model of a drawing LibreDWG has read already (`data` is its Dwg_Data). Everything
 * the walk learns or caches belongs to this call; the instance's text decoder is put back after.
 * What the read found (`found`: LibreDWG's error bits, the file's own checks) and what the walk
 * finds missing make the damage warning, first of the drawing's, or refuse a drawing mostly lost.
 */
export function walkDwg(
  lib: LibreDwgEx,
  data: Ptr,
  version: string,
  options: DwgReadOptions = {},
  found: FileFindings = { flags: 0, file: null, objects: 0 },
): Drawing {
  const restoreDecoder = decodeInCodePage(lib, data)
  try {
    assertHasObjects(lib, data)
    const ctx = dwgContext(lib, data, options.verify ?? false, version !== R11)
    const builder = new DrawingBuilder('dwg', version, options)
    // R11 and R12 have no INSUNITS (the reader gives a default): their drawings state no units.
    const insunits = version === R11 ? 0 : headerValue(ctx, 'INSUNITS')
    builder.units(typeof insunits === 'number' ? insunits : 0)
    const objects = new ObjectLayout(ctx)
    const records = new BlockRecords(ctx, version === R11)
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
    // Every block record's entity list, walked or not, for entities that could not be read.
    if (version !== R11) for (const record of records.all()) records.owned(record)
    const drawing = builder.finish()
    const counted = Object.values(drawing.entityCounts).reduce((sum, n) => sum + n, 0)
    const damage = damageWarning(ctx.damage, found, { modelSpace: counted })
    if (damage) drawing.warnings.unshift(damage)
    return drawing
  } finally {
    restoreDecoder()
  }
}
