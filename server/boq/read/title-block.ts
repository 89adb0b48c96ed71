import type { Attribute } from '../model/drawing.ts'

const TITLE_NAME =
  /title|titel|cartouche|cartiglio|schriftfeld|r[oó]tulo|cajet[ií]n|(^|[^a-z])tb([^a-z]|$)|sheet|border|frame/i
const TITLE_TAGS =
  /^(title|titel|dwg|drawing|dwgno|drawingno|number|no|scale|date|drawn|drawnby|checked|approved|project|projectno|client|rev|revision|sheet|job)/i

/** How much a block reference looks like a title block (0 = not at all). */
export function titleBlockScore(block: string, attributes: Attribute[]): number {
  if (attributes.length === 0) return 0
  const tagHits = attributes.filter((a) => TITLE_TAGS.test(a.tag.replace(/[\s_.-]/g, ''))).length
  if (TITLE_NAME.test(block)) return 10 + tagHits
  return tagHits >= 2 && attributes.length >= 3 ? tagHits : 0
}

export function attributeRecord(attributes: Attribute[]): Record<string, string> {
  return Object.fromEntries(attributes.map((a) => [a.tag, a.value]))
}
