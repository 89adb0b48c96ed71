import type { Currency } from '#contract/bill-settings.ts'
import type {
  ChangeItem,
  ChangeLine,
  ChangeState,
  EntityChanges,
  TotalChange,
} from '#contract/compare.ts'
import { metresPerBillUnit } from '../measure/units.ts'
import type { BillLine, Boq } from '../model/schema.ts'
import { numberChanges } from './change-numbers.ts'
import { MEASURING_TOLERANCE, sameFigure } from './change-tolerance.ts'
import { changedEntities } from './changed-entities.ts'
import { compareItems } from './compare-items.ts'
import { lineworkByKind, lineworkKind } from './linework-lines.ts'
import { movedBetweenZones, ZoneMatch } from './zone-changes.ts'

/** What comparing two bills gives, before it is told which jobs or files they came from. */
export interface Comparison {
  units: { length: string; area: string }
  notes: string[]
  lines: ChangeLine[]
  /** When both bills are priced: their items (`compareItems`). */
  items?: ChangeItem[]
  /** When both bills are priced: their totals. */
  total?: TotalChange
  /** When both bills are priced in one currency. */
  currency?: Currency
  /** The counted or measured entities only one drawing has, for the drawing view to colour. */
  entities: EntityChanges
}

/**
 * A bill's lines that measured something: bills kept before zero figures were left out of the
 * engine's bill may still hold a line of 0, which is no item to compare (nor "added").
 */
function measuredLines(boq: Boq): Boq['bill'] {
  return lineworkByKind(boq.bill.filter((line) => line.quantity > 0))
}

/**
 * The change bill from an older bill to a newer one, without reading either drawing again. Items
 * are matched as a surveyor reads them: count lines by effective block name (and the attribute
 * or visibility values the bill split them by), linework lines by layer and kind (a kept bill's
 * line of several kinds split by kind: `lineworkByKind`), area lines by layer. Renamed layers
 * are not guessed. The older bill's figures are put in the newer one's units. Each line has its
 * own item number (`numberChanges`). When both bills are priced, their items and amounts are
 * compared too (`compareItems`). It also says which counted or measured entities were added
 * or removed (`changedEntities`).
 */
export function compareBills(before: Boq, after: Boq): Comparison {
  const notes: string[] = []
  const scale = conversion(before, after, notes)
  const olderBill = measuredLines(before)
  const newerBill = measuredLines(after)
  const older = new Map(olderBill.map((line) => [itemKey(line), line]))
  const zones = ZoneMatch.applies(before, after) ? new ZoneMatch(before, after) : null
  if (!zones && (before.zones !== undefined || after.zones !== undefined)) {
    notes.push(
      `Only the ${before.zones ? 'earlier' : 'later'} bill has zones (the other was made without locations): the lines are not compared zone by zone.`,
    )
  }
  const byZone = (line: ChangeLine, was: BillLine | undefined, now: BillLine | undefined) => {
    if (!zones) return line
    const changes = zones.changes(was, now, scale[line.kind])
    const moved = line.state === 'unchanged' && movedBetweenZones(changes, line.kind, line)
    return { ...line, ...(moved ? { state: 'changed' as const } : {}), byZone: changes }
  }
  const lines: ChangeLine[] = []
  for (const line of newerBill) {
    const key = itemKey(line)
    const was = older.get(key)
    older.delete(key)
    const change = changeLine(line, was ? was.quantity * scale[line.kind] : 0, line.quantity, !was)
    lines.push(byZone(change, was, line))
  }
  const withinReading = lines.filter((line) => line.state === 'unchanged' && line.change !== 0)
  const moved = lines.filter((line) => line.state === 'changed' && line.change === 0)
  if (moved.length > 0) {
    notes.push(
      `${moved.length === 1 ? '1 line keeps its total' : `${moved.length} lines keep their totals`} but what ${moved.length === 1 ? 'it measures' : 'they measure'} moved between zones: ${moved.length === 1 ? 'it is' : 'they are'} changed (see by zone).`,
    )
  }
  if (withinReading.length > 0) {
    notes.push(
      `${withinReading.length === 1 ? '1 line differs' : `${withinReading.length} lines differ`} by less than ${MEASURING_TOLERANCE * 100}%, as two readings of the same curves can (a spline rebuilt from its fit points), and ${withinReading.length === 1 ? 'is' : 'are'} shown as unchanged.`,
    )
  }
  for (const was of older.values()) {
    const unit =
      was.kind === 'length' ? after.units.length : was.kind === 'area' ? after.units.area : was.unit
    const change = changeLine({ ...was, unit }, was.quantity * scale[was.kind], 0, false, true)
    lines.push(byZone(change, was, undefined))
  }
  // Largest change first: sorted once on keys worked out once (the bill's order breaks ties).
  const order = numberChanges(lines, olderBill, newerBill).map((line, index) => ({
    line,
    index,
    size: relative(line),
  }))
  order.sort(
    (a, b) =>
      STATE_ORDER[a.line.state] - STATE_ORDER[b.line.state] ||
      b.size - a.size ||
      Math.abs(b.line.change) - Math.abs(a.line.change) ||
      a.index - b.index,
  )
  const priced = compareItems(before, after, notes, zones)
  return {
    units: { length: after.units.length, area: after.units.area },
    notes,
    lines: order.map(({ line }) => line),
    ...priced,
    entities: changedEntities(before, after),
  }
}

/** The same item in both bills: its kind, and its block and values or its layer (and linework kind). */
function itemKey(line: BillLine): string {
  if (line.kind === 'count') {
    const values = Object.entries(line.values ?? {}).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    )
    return JSON.stringify(['count', line.block ?? line.description, values])
  }
  const layer = line.layer ?? line.description
  if (line.kind === 'length') return JSON.stringify([line.kind, layer, lineworkKind(line)])
  return JSON.stringify([line.kind, layer])
}

/** Multipliers that put the older bill's figures in the newer one's units. */
function conversion(before: Boq, after: Boq, notes: string[]): Record<BillLine['kind'], number> {
  const from = before.units
  const to = after.units
  if (from.length === to.length) return { count: 1, length: 1, area: 1 }
  const fromMetres = metresPerBillUnit(from)
  const toMetres = metresPerBillUnit(to)
  if (fromMetres === null || toMetres === null) {
    notes.push(
      `The earlier bill is in ${from.length} and the later one in ${to.length}, and one of them is in the units of a drawing that states none: lengths and areas are compared as they are. State the drawing's unit when extracting to compare them.`,
    )
    return { count: 1, length: 1, area: 1 }
  }
  const factor = fromMetres / toMetres
  notes.push(
    `The earlier bill is in ${from.length} and ${from.area}; its figures are converted to ${to.length} and ${to.area}.`,
  )
  return { count: 1, length: factor, area: factor * factor }
}

function changeLine(
  line: BillLine,
  before: number,
  after: number,
  added: boolean,
  removed = false,
): ChangeLine {
  const change = after - before
  const state: ChangeState = added
    ? 'added'
    : removed
      ? 'removed'
      : sameFigure(before, after, line.kind === 'count' ? 1e-9 : MEASURING_TOLERANCE)
        ? 'unchanged'
        : 'changed'
  return {
    ref: line.ref,
    kind: line.kind,
    description: line.description,
    ...(line.block === undefined ? {} : { block: line.block }),
    ...(line.values === undefined ? {} : { values: line.values }),
    ...(line.layer === undefined ? {} : { layer: line.layer }),
    unit: line.unit,
    before,
    after,
    change,
    changePercent: before === 0 ? null : (change / before) * 100,
    state,
  }
}

const STATE_ORDER: Record<ChangeState, number> = { added: 0, removed: 0, changed: 1, unchanged: 2 }

function relative(line: ChangeLine): number {
  return Math.abs(line.change) / Math.max(Math.abs(line.before), Math.abs(line.after), 1e-12)
}
