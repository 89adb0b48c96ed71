import { groupsOf } from '#contract/bill-groups.ts'
import { NO_QUANTITIES, noQuantitiesWarning } from '#contract/no-quantities.ts'
import type {
  BillLine,
  BillUnits,
  Boq,
  BoqNotMeasured,
  BoqReference,
  BoqXref,
} from '../model/schema.ts'
import { groupedRows } from './grouped-rows.ts'
import { pricedCsvTables } from './priced-rows.ts'
import type { Cell, Column, Table } from './table.ts'

/** The workbook's sheets, in order: the bill first, then the tables it is drawn from. */
export function sheetTables(boq: Boq): Table[] {
  return [
    billTable(boq),
    blocksTable(boq),
    referencesTable(boq),
    lengthsTable(boq),
    areasTable(boq),
    notMeasuredTable(boq),
  ]
}

/**
 * The CSV's sections: the priced bill's when there is one, then the sheets' tables, then what
 * the workbook says in notes.
 */
export function csvTables(boq: Boq): Table[] {
  const priced = boq.priced ? pricedCsvTables(boq.priced, groupsOf(boq)) : []
  return [...priced, ...sheetTables(boq), warningsTable(boq), xrefsTable(boq)]
}

// --- The bill ---------------------------------------------------------------------------------

/** The bill's lines with each kind together, kinds in the order they first appear. */
function groupedByKind(bill: BillLine[]): BillLine[] {
  const kinds = [...new Set(bill.map((line) => line.kind))]
  return kinds.flatMap((kind) => bill.filter((line) => line.kind === kind))
}

/** The bill's lines, pasted blocks under their group's line (which has no quantity of its own). */
function billTable(boq: Boq): Table {
  const lines = groupedByKind(boq.bill)
  const why = lines.length === 0 ? noQuantitiesWarning(boq.warnings) : null
  const { rows, levels } = groupedRows(
    lines,
    groupsOf(boq),
    { line: (line) => line.ref, block: (line) => line.block, quantity: (line) => line.quantity },
    (line) => [line.ref, line.description, line.quantity, line.unit],
    4,
  )
  // A group's line has no item number and no quantity: its format does not matter.
  const kindOf = new Map<Cell, BillLine['kind']>(lines.map((line) => [line.ref, line.kind]))
  const isCount = (i: number) => (kindOf.get(rows[i]?.[0] ?? null) ?? 'count') === 'count'
  return {
    name: 'Bill',
    columns: [
      { header: 'Item', format: 'text' },
      { header: 'Description', format: 'text' },
      // One column for every unit: counts show whole, measures two decimals.
      { header: 'Quantity', format: (i) => (isCount(i) ? 'count' : 'measure') },
      { header: 'Unit', format: 'text' },
    ],
    rows,
    levels,
    // An empty bill says why in its place, not again among the warnings.
    empty: why ?? `${NO_QUANTITIES}: nothing in the drawing’s model space was counted or measured.`,
    notes: billNotes(boq, why),
  }
}

/**
 * What a reader of the bill must know, said under it: warnings, what is not measured, xrefs. A
 * count of what is not measured is said in its sentence, never under the bill's Quantity, where
 * it would read as an item's.
 */
function billNotes(boq: Boq, said: string | null): Cell[][] {
  return [
    ...boq.warnings
      .filter((warning) => warning !== said)
      .map((warning): Cell[] => ['Warning', warning]),
    ...boq.notMeasured.map((n): Cell[] => ['Not measured', describeNotMeasured(n)]),
    ...boq.xrefs.map((xref): Cell[] => ['Xref', describeXref(xref)]),
  ]
}

/** `3DSOLID (58): 3D or surface object: not measured`, as the result page lists them. */
function describeNotMeasured(n: BoqNotMeasured): string {
  return `${n.type} (${n.count.toLocaleString('en-US')}): ${n.reason}`
}

const MAX_PLACEMENTS_SAID = 5

function describeXref(xref: BoqXref): string {
  const name = xref.path && xref.path !== xref.name ? `${xref.name} (${xref.path})` : xref.name
  if (xref.placed.length === 0) return `Drawing referenced: ${name}, not placed in model space`
  const verb = xref.overlay ? 'overlaid' : 'attached'
  const at = xref.placed
    .slice(0, MAX_PLACEMENTS_SAID)
    .map((p) => `${coordinate(p.x)}, ${coordinate(p.y)}`)
    .join('; ')
  const more = xref.placed.length - MAX_PLACEMENTS_SAID
  const rest = more > 0 ? ` and ${more} more places` : ''
  return `Drawing referenced: ${name}, ${verb} at ${at}${rest}, not read`
}

/** A coordinate in a sentence: no thousands separator, which would read as the x/y comma. */
function coordinate(value: number): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: 2, useGrouping: false })
}

/** The rows above the bill: what was read, in which units, and when. */
export function provenance(boq: Boq, written: Date): [string, string | Date][] {
  const { source } = boq
  const rows: [string, string | Date][] = [
    ['Drawing', source.fileName],
    ['Version', `${source.release} (${source.version}), ${source.format.toUpperCase()}`],
    ['Units', describeUnits(boq.units)],
    ['Written (UTC)', written],
  ]
  if (source.titleBlock) {
    const { block, attributes } = source.titleBlock
    const said = Object.entries(attributes).map(([tag, value]) => `${tag}: ${value}`)
    rows.push(['Title block', [block, ...said].join('; ')])
  }
  return rows
}

/** The bill's units and how they come from the drawing's, factors included. */
function describeUnits(units: BillUnits): string {
  const bill = `${units.length}, ${units.area}`
  if (units.drawing.name === 'unitless' && !units.stated)
    return `${bill}: the drawing does not state its units, so quantities are in drawing units`
  const from = units.stated
    ? `the drawing does not state its units; stated as ${units.stated}`
    : `the drawing is in ${units.drawing.name}`
  if (units.lengthFactor === 1 && units.areaFactor === 1) return `${bill}: ${from}`
  return `${bill}: ${from}; lengths × ${factor(units.lengthFactor)}, areas × ${factor(units.areaFactor)}`
}

/** Twelve significant digits: exact for the usual factors, short for the repeating ones. */
function factor(value: number): string {
  return String(Number(value.toPrecision(12)))
}

// --- The tables the bill is drawn from (drawing units) ------------------------------------------

function blocksTable(boq: Boq): Table {
  return {
    name: 'Blocks by layer',
    columns: [
      { header: 'Block', format: 'text' },
      { header: 'Layer', format: 'text' },
      { header: 'Count', format: 'count' },
      { header: 'Of which nested', format: 'count' },
    ],
    rows: boq.blocks.map((b) => [b.block, b.layer, b.count, b.nested]),
    empty: 'No block references in model space.',
    notes: [],
  }
}

/** Names a table's own columns take; the CSV's first column is `Section`. */
const REFERENCE_HEADERS = ['Handle', 'Block', 'Definition', 'Layer', 'Count', 'Contains', 'Section']

function referencesTable(boq: Boq): Table {
  const unit = boq.units.drawing.length
  const taken = new Set([...REFERENCE_HEADERS, `X (${unit})`, `Y (${unit})`].map(folded))
  const tagHeaders = boq.attributeTags.map((tag) => uniqueHeader(tag, 'attribute', taken))
  const propertyHeaders = boq.propertyNames.map((name) => uniqueHeader(name, 'property', taken))
  const count = boq.references.reduce((sum, r) => sum + r.count, 0)
  return {
    name: 'References',
    columns: [
      { header: 'Handle', format: 'text' },
      { header: 'Block', format: 'text' },
      { header: 'Definition', format: 'text' },
      { header: 'Layer', format: 'text' },
      { header: 'Count', format: 'count' },
      { header: `X (${unit})`, format: 'measure' },
      { header: `Y (${unit})`, format: 'measure' },
      ...tagHeaders.map((header): Column => ({ header, format: 'text' })),
      ...propertyHeaders.map((header): Column => ({ header, format: 'text' })),
      { header: 'Contains', format: 'text' },
    ],
    rows: boq.references.map((r) => referenceRow(r, boq.attributeTags, boq.propertyNames)),
    empty: 'No block references in model space.',
    notes: boq.referencesCapped
      ? [
          [
            `The list stops here, after ${boq.references.length.toLocaleString('en-US')} references (${count.toLocaleString('en-US')} counted); the bill and “Blocks by layer” count every reference.`,
          ],
        ]
      : [],
  }
}

function referenceRow(r: BoqReference, tags: string[], properties: string[]): Cell[] {
  return [
    r.handle,
    r.block,
    // Only a dynamic block's anonymous definition says more than the block's name.
    r.definition === r.block ? null : r.definition,
    r.layer,
    r.count,
    r.x,
    r.y,
    ...tags.map((tag) => r.attributes[tag] ?? null),
    ...properties.map((name) => r.properties[name] ?? null),
    containsSummary(r.nested),
  ]
}

const MAX_CONTAINS_CHARS = 200

/** "CHAIR × 4, TABLE × 1", stopping with how many more once it grows past a readable length. */
function containsSummary(nested: { block: string; count: number }[]): string | null {
  if (nested.length === 0) return null
  let said = ''
  for (const [i, { block, count }] of nested.entries()) {
    const item = `${block} × ${count.toLocaleString('en-US')}`
    const next = said ? `${said}, ${item}` : item
    if (next.length > MAX_CONTAINS_CHARS && i > 0) return `${said}, … ${nested.length - i} more`
    said = next
  }
  return said
}

/** Lowercase: a header differing only in case from another is the same to a reader. */
function folded(header: string): string {
  return header.toLowerCase()
}

/** A header not yet taken: the name, or the name with what it is, numbered if need be. */
function uniqueHeader(name: string, what: string, taken: Set<string>): string {
  const base = name || `(unnamed ${what})`
  let header = taken.has(folded(base)) ? `${base} (${what})` : base
  for (let n = 2; taken.has(folded(header)); n++) header = `${base} (${what} ${n})`
  taken.add(folded(header))
  return header
}

function lengthsTable(boq: Boq): Table {
  const { drawing, length, lengthFactor } = boq.units
  const converted = length !== drawing.length || lengthFactor !== 1
  return {
    name: 'Lengths',
    columns: [
      { header: 'Layer', format: 'text' },
      { header: 'Kind', format: 'text' },
      { header: 'Multiline style', format: 'text' },
      { header: 'Count', format: 'count' },
      { header: `Length (${drawing.length})`, format: 'measure' },
      ...(converted ? [{ header: `Length (${length})`, format: 'measure' } as const] : []),
    ],
    rows: boq.lengths.map((l) => [
      l.layer,
      l.kind,
      l.style,
      l.count,
      l.length,
      ...(converted ? [l.length * lengthFactor] : []),
    ]),
    empty: 'No linework in model space.',
    notes: [],
  }
}

function areasTable(boq: Boq): Table {
  const { drawing, area, areaFactor } = boq.units
  const converted = area !== drawing.area || areaFactor !== 1
  return {
    name: 'Areas',
    columns: [
      { header: 'Layer', format: 'text' },
      { header: 'Closed polylines', format: 'count' },
      { header: `Closed polyline area (${drawing.area})`, format: 'measure' },
      { header: 'Circles and whole ellipses', format: 'count' },
      { header: `Circle and ellipse area (${drawing.area})`, format: 'measure' },
      { header: 'Hatches', format: 'count' },
      { header: `Hatch area (${drawing.area})`, format: 'measure' },
      { header: 'Outlines filled by a hatch', format: 'count' },
      { header: `Net area (${drawing.area})`, format: 'measure' },
      ...(converted ? [{ header: `Net area (${area})`, format: 'measure' } as const] : []),
    ],
    rows: boq.areas.map((a) => [
      a.layer,
      a.closedPolylines,
      a.closedPolylineArea,
      a.closedCurves ?? 0,
      a.closedCurveArea ?? 0,
      a.hatches,
      a.hatchArea,
      a.filledByHatch,
      a.net,
      ...(converted ? [a.net * areaFactor] : []),
    ]),
    empty: 'No closed polylines, circles, whole ellipses or hatches in model space.',
    notes: [],
  }
}

function notMeasuredTable(boq: Boq): Table {
  return {
    name: 'Not measured',
    columns: [
      { header: 'Type', format: 'text' },
      { header: 'Count', format: 'count' },
      { header: 'Reason', format: 'text' },
    ],
    rows: boq.notMeasured.map((n) => [n.type, n.count, n.reason]),
    empty: 'Everything in model space was measured.',
    notes: [],
  }
}

// --- CSV only: what the workbook says in the bill's notes ---------------------------------------

function warningsTable(boq: Boq): Table {
  return {
    name: 'Warnings',
    columns: [{ header: 'Warning', format: 'text' }],
    rows: boq.warnings.map((warning) => [warning]),
    empty: '',
    notes: [],
  }
}

function xrefsTable(boq: Boq): Table {
  const unit = boq.units.drawing.length
  return {
    name: 'Drawings referenced',
    columns: [
      { header: 'Name', format: 'text' },
      { header: 'Path', format: 'text' },
      { header: 'Overlay', format: 'text' },
      { header: 'Handle', format: 'text' },
      { header: 'Layer', format: 'text' },
      { header: `X (${unit})`, format: 'measure' },
      { header: `Y (${unit})`, format: 'measure' },
    ],
    rows: boq.xrefs.flatMap((xref): Cell[][] => {
      const about: Cell[] = [xref.name, xref.path, xref.overlay ? 'yes' : 'no']
      if (xref.placed.length === 0) return [[...about, null, null, null, null]]
      return xref.placed.map((p) => [...about, p.handle, p.layer, p.x, p.y])
    }),
    empty: '',
    notes: [],
  }
}

// --- Cell text --------------------------------------------------------------------------------

/** Excel's limit on the characters in one cell. */
export const MAX_CELL_CHARS = 32_767

/** Half of a UTF-16 pair on its own: not text an XML file may hold. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** Text that fits a cell, cut with a visible marker saying how long it was. */
export function fitted(text: string, limit = MAX_CELL_CHARS): string {
  const whole = text.replace(LONE_SURROGATE, '\uFFFD')
  if (whole.length <= limit) return whole
  const marker = `… [cut: ${whole.length.toLocaleString('en-US')} characters]`
  let end = limit - marker.length
  // Never split a surrogate pair: half a character is not valid text.
  if (/[\uD800-\uDBFF]/.test(whole[end - 1] ?? '')) end--
  return whole.slice(0, end) + marker
}
