import { Dwg_Object_Type as T } from '@mlightcad/libredwg-web'
import type { DrawingBuilder } from '../drawing-builder.ts'
import type { BlockRecords } from './block-records.ts'
import type { BlockReader } from './blocks.ts'
import type { DwgContext, Ptr } from './context.ts'

/**
 * Paper space is not measured: its entities are counted (every layout's block record), and the
 * active layout's references are looked at for a title block.
 */
export function readPaperSpace(
  ctx: DwgContext,
  builder: DrawingBuilder,
  parts: { records: BlockRecords; blocks: BlockReader },
  modelSpace: Ptr,
  paperSpace: Ptr,
): void {
  const { records, blocks } = parts
  try {
    if (paperSpace) {
      const entities = records.owned(paperSpace)
      builder.paperSpace(entities.length)
      for (const obj of entities) {
        if (ctx.wasm.dwg_object_get_fixedtype(obj) === T.DWG_TYPE_INSERT) blocks.inPaperSpace(obj)
      }
    }
    // The other layouts (R2000+): block records that point to a LAYOUT object.
    const layouts = records
      .all()
      .filter(
        (header) =>
          header !== modelSpace &&
          header !== paperSpace &&
          records.isBlockRecord(header) &&
          records.isLayout(header),
      )
    for (const layout of layouts) builder.paperSpace(records.owned(layout).length)
  } catch (error) {
    // Paper space is only counted and looked at for a title block; a failure costs nothing else.
    if (ctx.verify) throw error
  }
}
