import type { Ignored, NotClassified, RuleMatch } from '#contract/takeoff-rules.ts'
import { lineworkDescription } from '../measure/linework-words.ts'
import type { BillUnits } from '../model/schema.ts'
import type { CompiledRow, CompiledRules } from './compile.ts'
import { figureProblem } from './figures.ts'
import { MissingValue } from './formula.ts'
import { firstMatcher } from './group-index.ts'
import { billUnitOf, conversionFactor } from './item-units.ts'
import { labelOf, lookupOf, type Piece } from './piece.ts'

/**
 * Rules applied to measured pieces: each piece goes to the first group that takes it, and every
 * row of that group gives an item from it (or leaves it out, for an ignore group). Items with
 * the same code, description, unit and rate are one. Pieces no group takes are not classified.
 */

/** Per item, the first few reasons it is flagged are told in full, the rest counted. */
const FLAGS_TOLD = 5

export type DraftSource = {
  line: string
  measured: number
  count: number
  quantity: number
  handles: string[]
}

export type DraftItem = {
  code: string
  description: string
  unit: string
  rate: number | null
  quantity: number
  rules: number[]
  sources: Map<string, DraftSource>
  flags: string[]
  flagsUntold: number
  /** With locations: the quantity by zone (null: unallocated). */
  byZone?: Map<string | null, number>
}

export type Applied = {
  items: DraftItem[]
  notClassified: NotClassified[]
  ignored: Ignored[]
}

export type ApplyContext = {
  units: BillUnits
  /** A code's title, for items whose rule gives none. */
  titleOf: (code: string) => string | undefined
  /** Formula names some reference has (attributes, properties), by variableName. */
  pieceVariables: Set<string>
}

export function applyRules(rules: CompiledRules, pieces: Piece[], context: ApplyContext): Applied {
  const items = new Map<string, DraftItem>()
  const notClassified = new Map<string, NotClassified>()
  const ignored = new Map<string, Ignored>()
  const prepared = new Map<CompiledRow, Prepared>()
  const prepare = (row: CompiledRow, match: RuleMatch) => {
    let known = prepared.get(row)
    if (!known) {
      known = prepareRow(row, match, context)
      prepared.set(row, known)
    }
    return known
  }

  const first = {
    count: firstMatcher(rules.groups.count),
    length: firstMatcher(rules.groups.length),
    area: firstMatcher(rules.groups.area),
    zone: firstMatcher(rules.groups.zone),
  }
  for (const piece of pieces) {
    const group = first[piece.match](piece)
    if (!group) {
      // A zone is no measured line: one no rule prices is in the room schedule all the same.
      if (piece.match !== 'zone') addNotClassified(notClassified, piece, context.units)
      continue
    }
    if (group.ignore) {
      addIgnored(ignored, group.rows[0].rule, piece, context.units)
      continue
    }
    for (const row of group.rows) {
      const { key, unit, description, factor, problem } = prepare(row, piece.match)
      let item = items.get(key)
      if (!item) {
        item = {
          code: row.code,
          description,
          unit,
          rate: row.rate,
          quantity: 0,
          rules: [],
          sources: new Map(),
          flags: [],
          flagsUntold: 0,
        }
        if (problem) flag(item, problem)
        items.set(key, item)
      }
      if (!item.rules.includes(row.rule)) item.rules.push(row.rule)
      let value = problem ? null : quantityOf(row, piece, factor, item)
      const sum = value === null ? null : figureProblem(item.quantity + value)
      if (sum) {
        flag(
          item,
          `rule ${row.rule}: with ${labelOf(piece)} the item's quantity would be ${sum}; left out of the quantity`,
        )
        value = null
      }
      if (value !== null) item.quantity += value
      if (value !== null && (piece.zones || piece.zone !== undefined)) addByZone(item, piece, value)
      addSource(item, piece, value ?? 0)
    }
  }
  return {
    items: [...items.values()],
    notClassified: [...notClassified.values()],
    ignored: [...ignored.values()],
  }
}

type Prepared = {
  key: string
  unit: string
  description: string
  factor: number
  /** Why the row gives nothing for any piece: named once on its item. */
  problem: string | null
}

function prepareRow(row: CompiledRow, match: RuleMatch, context: ApplyContext): Prepared {
  const unit = row.unit || billUnitOf(match, context.units)
  const description = row.description || (row.code && context.titleOf(row.code)) || ''
  const key = [row.code, description, unit, row.rate ?? ''].join('\u0000')
  let factor = 1
  let problem: string | null = null
  if (!row.formula) {
    const conversion = conversionFactor(match, unit, context.units)
    if ('factor' in conversion) factor = conversion.factor
    else problem = `rule ${row.rule}: ${conversion.error}`
  }
  const unknown = row.pieceVariables.filter((name) => !context.pieceVariables.has(name))
  if (unknown.length > 0) {
    problem = `rule ${row.rule}: no reference in this drawing has ${unknown.join(' or ')} (an attribute or a dynamic property)`
  }
  return { key, unit, description, factor, problem }
}

/** The piece's quantity for one row's item, or null (flagged on the item) when there is none. */
function quantityOf(
  row: CompiledRow,
  piece: Piece,
  factor: number,
  item: DraftItem,
): number | null {
  if (!row.formula) return checked(row, piece, piece.quantity * factor, item)
  let value: number
  try {
    value = row.formula.evaluate(lookupOf(piece))
  } catch (error) {
    if (!(error instanceof MissingValue)) throw error
    flag(item, `rule ${row.rule}: ${error.message}; left out of the quantity`)
    return null
  }
  if (!Number.isFinite(value)) {
    flag(
      item,
      `rule ${row.rule}: ${row.formula.source} gives ${value} for ${labelOf(piece)} (${Number.isNaN(value) ? 'not a number' : 'a division by zero?'}); left out of the quantity`,
    )
    return null
  }
  if (piece.together && !row.formula.additive) {
    flag(
      item,
      `rule ${row.rule}: ${row.formula.source} ran once on ${labelOf(piece)}, measured together: per entity it may give another figure`,
    )
  }
  return checked(row, piece, value, item)
}

/** A finite quantity past the largest figure is flagged and left out, as a missing one is. */
function checked(row: CompiledRow, piece: Piece, value: number, item: DraftItem): number | null {
  const problem = figureProblem(value)
  if (!problem) return value
  const what = row.formula ? row.formula.source : 'the measured quantity'
  flag(
    item,
    `rule ${row.rule}: ${what} gives ${value} for ${labelOf(piece)}, ${problem}; left out of the quantity`,
  )
  return null
}

function flag(item: DraftItem, message: string): void {
  if (item.flags.includes(message)) return
  if (item.flags.length < FLAGS_TOLD) item.flags.push(message)
  else item.flagsUntold++
}

/** What a piece gave an item, shared by zone as the piece's own quantity is. */
function addByZone(item: DraftItem, piece: Piece, value: number): void {
  item.byZone ??= new Map()
  const zones = piece.zones
  if (!zones) {
    const zone = piece.zone ?? null
    item.byZone.set(zone, (item.byZone.get(zone) ?? 0) + value)
    return
  }
  let whole = 0
  for (const part of zones) whole += part.quantity
  for (const part of zones) {
    const share = whole > 0 ? part.quantity / whole : zones.length === 1 ? 1 : 0
    item.byZone.set(part.zone, (item.byZone.get(part.zone) ?? 0) + value * share)
  }
}

function addSource(item: DraftItem, piece: Piece, quantity: number): void {
  let source = item.sources.get(piece.line)
  if (!source) {
    source = { line: piece.line, measured: 0, count: 0, quantity: 0, handles: [] }
    item.sources.set(piece.line, source)
  }
  source.measured += piece.quantity
  source.count += piece.count
  source.quantity += quantity
  for (const handle of piece.handles) source.handles.push(handle)
}

function addNotClassified(list: Map<string, NotClassified>, piece: Piece, units: BillUnits): void {
  // The block too: "Make a rule…" prefills its block, so two blocks' pieces on one line and
  // layer are two entries.
  const key = `${piece.line}\u0000${piece.block ?? ''}\u0000${piece.layer}\u0000${piece.kind ?? ''}`
  let entry = list.get(key)
  if (!entry) {
    entry = {
      line: piece.line,
      match: piece.match,
      description: notClassifiedDescription(piece),
      ...(piece.block !== undefined ? { block: piece.block } : {}),
      layer: piece.layer,
      ...(piece.kind !== undefined ? { kind: piece.kind } : {}),
      unit: billUnitOf(piece.match, units),
      quantity: 0,
      count: 0,
      handles: [],
    }
    list.set(key, entry)
  }
  entry.quantity += piece.quantity
  entry.count += piece.count
  for (const handle of piece.handles) entry.handles.push(handle)
}

/**
 * Linework is told by its kind as well as its layer: a result kept when its bill had one line of
 * every kind of a layer (`Linework on layer …`) lists the arcs and the splines of it apart too.
 */
function notClassifiedDescription(piece: Piece): string {
  if (piece.match !== 'length' || piece.kind === undefined) return piece.description
  return lineworkDescription(piece.kind, piece.layer)
}

function addIgnored(list: Map<string, Ignored>, rule: number, piece: Piece, units: BillUnits) {
  const key = `${rule}\u0000${piece.line}`
  let entry = list.get(key)
  if (!entry) {
    entry = {
      rule,
      line: piece.line,
      description: piece.description,
      unit: billUnitOf(piece.match, units),
      quantity: 0,
      count: 0,
      handles: [],
    }
    list.set(key, entry)
  }
  entry.quantity += piece.quantity
  entry.count += piece.count
  for (const handle of piece.handles) entry.handles.push(handle)
}
