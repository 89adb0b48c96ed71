import type { CompiledLocation } from './table.ts'

/**
 * What went wrong with the zones of a locations table, by the row it concerns: what the bill's
 * warnings say for the whole drawing, said again for each row (and what only a row can be told:
 * it found nothing, or its label layer holds no label), so the row can show its own.
 */

export type RowProblemKind =
  /** Outlines on the row's layers that are not closed. */
  | 'open'
  /** Zone outlines of the row that cross themselves. */
  | 'crossing'
  /** Zones of the row with no label inside. */
  | 'unnamed'
  /** Zones of the row whose path another zone has too. */
  | 'same-name'
  /** Zones of the row overlapping another of the same level. */
  | 'overlap'
  /** The row's label layer glob matches no label of the drawing. */
  | 'label-layer'
  /** The row found no zone. */
  | 'nothing'

export type RowProblem = { row: number; kind: RowProblemKind; message: string }

/**
 * Every row's problems, in the table's order; `detailed`: the bill's warnings they say again by
 * row (a preview shows those beside the rows, and the others on their own).
 */
export type RowFindings = { problems: RowProblem[]; detailed: string[] }

export function listed(names: string[]): string {
  return names.length > 5
    ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more`
    : names.join(', ')
}

/**
 * What each row found nothing, said why: no layer of the drawing matches it, every layer it
 * matches goes to an earlier row, or those layers hold no closed outline. `layers`: each layer of
 * the drawing's shapes, with the row that takes it (undefined: none).
 */
export function nothingFound(
  rows: CompiledLocation[],
  found: Set<number>,
  layers: Map<string, CompiledLocation | undefined>,
): RowProblem[] {
  const problems: RowProblem[] = []
  for (const row of rows) {
    if (found.has(row.row)) continue
    const matching = [...layers].filter(([layer]) => row.layer.test(layer))
    const takenBy = [
      ...new Set(matching.flatMap(([, taker]) => (taker && taker !== row ? [taker.row] : []))),
    ]
    const own = matching.filter(([, taker]) => taker === row).map(([layer]) => layer)
    let message: string
    if (matching.length === 0)
      message = `Found no zone: no layer of the drawing matches ${row.layer.source}.`
    else if (own.length === 0)
      message = `Found no zone: its layers (${listed(matching.map(([layer]) => layer))}) go to ${takenBy.length === 1 ? 'row' : 'rows'} ${takenBy.join(', ')} above, the first row whose layer matches each.`
    else message = `Found no zone: no closed outline on its layers (${listed(own)}).`
    problems.push({ row: row.row, kind: 'nothing', message })
  }
  return problems
}

/**
 * The rows whose label layer matches none of the layers labels can come from: `textLayers` the
 * layers of the drawing's texts, `tagLayers` those of block references by attribute tag (upper
 * case).
 */
export function labelLayersUnmatched(
  rows: CompiledLocation[],
  textLayers: Set<string>,
  tagLayers: Map<string, Set<string>>,
): RowProblem[] {
  const problems: RowProblem[] = []
  for (const row of rows) {
    const { label, labelLayer } = row
    if (!labelLayer || label.source === 'layer') continue
    const layers =
      label.source === 'text' ? textLayers : (tagLayers.get(label.tag.toUpperCase()) ?? new Set())
    if ([...layers].some((layer) => labelLayer.test(layer))) continue
    const what =
      label.source === 'text' ? 'No text' : `No block reference with attribute ${label.tag}`
    problems.push({
      row: row.row,
      kind: 'label-layer',
      message: `${what} is on a layer matching its label layer ${labelLayer.source}: no zone of this row is named from it.`,
    })
  }
  return problems
}
