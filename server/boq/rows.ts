import type { Boq } from './schema.ts'

export type Cell = string | number | null
/** One quantity kind as a table: the XLSX sheet and the CSV section show exactly these rows. */
export type Table = { name: string; headers: string[]; numeric: boolean[]; rows: Cell[][] }

export function quantityTables(boq: Boq): Table[] {
  const { length: lu, area: au } = boq.source.units
  const tags = boq.attributeTags
  return [
    {
      name: 'Blocks',
      headers: ['Block', 'Layer', 'Count', 'Of which nested'],
      numeric: [false, false, true, true],
      rows: boq.blocks.map((b) => [b.block, b.layer, b.count, b.nested]),
    },
    {
      name: 'References',
      headers: ['Block', 'Layer', 'Nested in', 'Count', `X (${lu})`, `Y (${lu})`, ...tags],
      numeric: [false, false, false, true, true, true, ...tags.map(() => false)],
      rows: boq.references.map((r) => [
        r.block,
        r.layer,
        r.parent,
        r.count,
        r.x,
        r.y,
        ...tags.map((t) => r.attributes[t] ?? null),
      ]),
    },
    {
      name: 'Lengths',
      headers: ['Layer', 'Kind', 'Count', `Length (${lu})`],
      numeric: [false, false, true, true],
      rows: boq.lengths.map((l) => [l.layer, l.kind, l.count, l.length]),
    },
    {
      name: 'Areas',
      headers: [
        'Layer',
        'Closed polylines',
        `Closed polyline area (${au})`,
        'Hatches',
        `Hatch area (${au})`,
        'Polylines filled by a hatch',
        `Net area (${au})`,
      ],
      numeric: [false, true, true, true, true, true, true],
      rows: boq.areas.map((a) => [
        a.layer,
        a.closedPolylines,
        a.closedPolylineArea,
        a.hatches,
        a.hatchArea,
        a.filledByHatch,
        a.net,
      ]),
    },
  ]
}

/** The summary: what the file is and the totals of each quantity kind. */
export function summaryRows(boq: Boq): [string, Cell][] {
  const { source } = boq
  const rows: [string, Cell][] = [
    ['File', source.fileName],
    ['Format', source.format.toUpperCase()],
    ['Version', `${source.release} (${source.version})`],
    [
      'Units',
      source.units.code
        ? `${source.units.name} (${source.units.length})`
        : 'not set in the drawing',
    ],
    ['Block references (each)', boq.blocks.reduce((s, b) => s + b.count, 0)],
    [`Total length (${source.units.length})`, boq.lengths.reduce((s, l) => s + l.length, 0)],
    [`Total net area (${source.units.area})`, boq.areas.reduce((s, a) => s + a.net, 0)],
    ['BOQ schema version', boq.version],
  ]
  if (source.titleBlock) {
    rows.push(['Title block', source.titleBlock.block])
    for (const [tag, value] of Object.entries(source.titleBlock.attributes))
      rows.push([`  ${tag}`, value])
  }
  for (const warning of source.warnings) rows.push(['Warning', warning])
  for (const s of source.skipped) rows.push([`Not measured: ${s.type}`, `${s.count} (${s.reason})`])
  return rows
}
