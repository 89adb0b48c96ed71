import type { DwgDatabase, DwgEntity, DwgInsertEntity } from '@mlightcad/libredwg-web'

/**
 * Entity types whose drawing needs fonts. The viewer would fetch them from a CDN the app's
 * Content-Security-Policy (and a machine without internet) refuses, so the view leaves text out.
 */
const NEEDS_FONTS = new Set([
  'TEXT',
  'MTEXT',
  'ATTDEF',
  'ATTRIB',
  'ARCALIGNEDTEXT',
  'TOLERANCE',
  'MULTILEADER',
  'ACAD_TABLE',
  'SHAPE',
])

const drawable = (entity: DwgEntity) => !NEEDS_FONTS.has(entity.type)

/** Strips a block reference's attributes, which are text too. */
function withoutAttributes(entity: DwgEntity): DwgEntity {
  if (entity.type !== 'INSERT') return entity
  const insert = entity as DwgInsertEntity
  return insert.attribs?.length ? ({ ...insert, attribs: [] } as DwgEntity) : entity
}

/**
 * The drawing without text, in model space and in every block (dimension blocks keep their lines
 * and arrows). Handles, layers and everything else stay as read.
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
