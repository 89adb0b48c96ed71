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

/**
 * Embedded OLE objects: the viewer shows their picture through a `blob:` URL, which the policy
 * (`img-src`) refuses too, so they are left out as well.
 */
const EMBEDDED_PICTURES = new Set(['OLE2FRAME', 'OLEFRAME'])

const drawable = (entity: DwgEntity) =>
  !NEEDS_FONTS.has(entity.type) && !EMBEDDED_PICTURES.has(entity.type)

/** Strips a block reference's attributes, which are text too. */
function withoutAttributes(entity: DwgEntity): DwgEntity {
  if (entity.type !== 'INSERT') return entity
  const insert = entity as DwgInsertEntity
  return insert.attribs?.length ? ({ ...insert, attribs: [] } as DwgEntity) : entity
}

/**
 * The drawing without text (nor embedded OLE pictures), in model space and in every block (dimension blocks keep their lines
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
