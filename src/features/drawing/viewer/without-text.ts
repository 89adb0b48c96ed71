import type { DwgDatabase, DwgEntity, DwgInsertEntity } from '@mlightcad/libredwg-web'
import { LEFT_OUT_TYPES } from './left-out'

const drawable = (entity: DwgEntity) => !LEFT_OUT_TYPES.has(entity.type)

/** Strips a block reference's attributes, which are text too. */
function withoutAttributes(entity: DwgEntity): DwgEntity {
  if (entity.type !== 'INSERT') return entity
  const insert = entity as DwgInsertEntity
  return insert.attribs?.length ? ({ ...insert, attribs: [] } as DwgEntity) : entity
}

/**
 * The drawing without text (nor embedded OLE pictures: left-out.ts), in model space and in every
 * block (dimension blocks keep their lines and arrows). Handles, layers and everything else stay as
 * read.
 */
export function withoutText(database: DwgDatabase): DwgDatabase {
  const keep = (entities: DwgEntity[]) => entities.filter(drawable).map(withoutAttributes)
  const blocks = database.tables.BLOCK_RECORD
  return {
    ...database,
    entities: keep(database.entities),
    tables: {
      ...database.tables,
      BLOCK_RECORD: {
        ...blocks,
        entries: blocks.entries.map((block) => ({ ...block, entities: keep(block.entities) })),
      },
    },
  }
}
