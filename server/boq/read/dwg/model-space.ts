import type { DrawingBuilder } from '../drawing-builder.ts'
import type { BlockRecords } from './block-records.ts'
import type { BlockReader } from './blocks.ts'
import type { DwgContext, Ptr } from './context.ts'
import type { EntityReader } from './entities.ts'
import { isReference, isSubentity, isText, TypeNames } from './entity-types.ts'
import type { PictureReader } from './picture.ts'

/** What the model-space walk hands each entity to. */
export type ModelSpaceParts = {
  records: BlockRecords
  blocks: BlockReader
  entities: EntityReader
  /** null: the picture is not wanted. */
  picture: PictureReader | null
}

/**
 * Model space (`modelSpace`: its block record, 0 when the drawing has none): every entity counted
 * by type, then read as a block reference or as geometry, or listed as not measured; and, when
 * the picture is wanted, every one drawn, in the same order.
 */
export function readModelSpace(
  ctx: DwgContext,
  builder: DrawingBuilder,
  parts: ModelSpaceParts,
  modelSpace: Ptr,
): void {
  const typeNames = new TypeNames(ctx)
  const list = modelSpaceEntities(ctx, parts.records, modelSpace)
  if (!modelSpace) ctx.damage.noModelSpace()
  if (list.length === 0 && !modelSpace) {
    builder.warn('The reader found no model space in this drawing: it may be only partly readable.')
  }
  for (const obj of list) {
    const type = ctx.wasm.dwg_object_get_fixedtype(obj)
    const typeName = typeNames.of(obj, type)
    builder.count(typeName)
    if (isReference(type)) {
      parts.blocks.inModelSpace(obj, type)
      parts.picture?.modelSpace(obj, type, null)
      continue
    }
    const entity = parts.entities.read(obj, type)
    if (entity) builder.entity(entity)
    else builder.skip(typeName)
    if (!entity && isText(type)) {
      const text = parts.entities.text(obj, type)
      if (text) builder.text(text)
    }
    parts.picture?.modelSpace(obj, type, entity)
  }
  // Entities model space lists that LibreDWG could not read: counted, their type unknown.
  const unread = modelSpace ? ctx.damage.unreadIn(modelSpace) : 0
  for (let i = 0; i < unread; i++) builder.skip(UNREADABLE, UNREADABLE_REASON)
}

/** The Not measured label of a model-space entity the damaged drawing lost, and its reason. */
export const UNREADABLE = 'unreadable entity'
const UNREADABLE_REASON = 'the drawing is damaged: this entity could not be read'

/**
 * Model-space entities: its record's owned list, else (LibreDWG leaves that list empty in some
 * drawings) every entity whose owner is model space; never an R11 entity flagged deleted.
 */
function modelSpaceEntities(ctx: DwgContext, records: BlockRecords, modelSpace: Ptr): Ptr[] {
  const { lib, data, wasm } = ctx
  const owned = modelSpace ? records.owned(modelSpace) : []
  if (owned.length > 0) return owned
  const msTio = modelSpace ? wasm.dwg_object_to_object_tio(modelSpace) : 0
  const found: Ptr[] = []
  const n = lib.dwg_get_num_objects(data)
  for (let i = 0; i < n; i++) {
    const obj = wasm.dwg_get_object(data, i)
    if (!obj || wasm.dwg_object_get_supertype(obj) !== 0) continue
    const type = wasm.dwg_object_get_fixedtype(obj)
    if (isSubentity(type) || !records.inDrawing(obj)) continue
    const owner = wasm.dwg_entity_owner(wasm.dwg_object_to_entity_tio(obj))
    if (owner === msTio || (!msTio && !owner)) found.push(obj)
  }
  return found
}
