import type { LocationRow } from '#contract/locations.ts'
import { nextRowId } from './table-rows'

/** One row of the locations as the editor edits it: every cell as typed. */
export type LocationEditorRow = { id: number; layer: string; label: string; labelLayer: string }

/** Where a zone's name may come from, as the label cell offers them. */
export const LABEL_SOURCES = ['text', 'layer', 'attribute:'] as const

/** A new row (names from the text inside unless told), with an id of its own. */
export function newLocationRow(
  cells: Partial<Omit<LocationEditorRow, 'id'>> = {},
): LocationEditorRow {
  return { id: nextRowId(), layer: '', label: 'text', labelLayer: '', ...cells }
}

export function fromLocation(row: LocationRow): LocationEditorRow {
  return newLocationRow({ layer: row.layer, label: row.label, labelLayer: row.labelLayer ?? '' })
}

/** The row as the API takes it: cells trimmed, no label layer (any) left out. */
export function toLocation(row: LocationEditorRow): LocationRow {
  const labelLayer = row.labelLayer.trim()
  return { layer: row.layer.trim(), label: row.label.trim(), ...(labelLayer ? { labelLayer } : {}) }
}

/**
 * What is wrong with a row before the server is asked, or null: only what no row can have. A
 * broken glob the server names by row, as it reads globs.
 */
export function locationError(row: LocationEditorRow): string | null {
  if (row.layer.trim() === '')
    return 'Give the layers whose closed outlines are zones (A-AREA, *-SPACE).'
  const label = row.label.trim().toLowerCase()
  if (label === 'text' || label === 'layer') return null
  if (/^attribute:\s*\S/.test(label)) return null
  if (label.startsWith('attribute:'))
    return 'Name the attribute the room tag holds the name in: attribute:NAME.'
  return 'The label is text (inside the outline), layer, or attribute:TAG (a room tag block’s attribute).'
}
