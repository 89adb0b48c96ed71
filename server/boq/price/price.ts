import { type BillSettings, checkBillSettings, currencyOf } from '#contract/bill-settings.ts'
import { DEFAULT_AMOUNT_DECIMALS, unitDecimals } from '#contract/figures.ts'
import type { ByZone } from '#contract/locations.ts'
import type {
  ClassificationEntry,
  PricedBill,
  PricedHeader,
  PricedItem,
  PricedSection,
  TakeoffRule,
} from '#contract/takeoff-rules.ts'
import { byZoneOf } from '../locations/by-zone.ts'
import type { Boq } from '../model/schema.ts'
import { adjust } from './adjust.ts'
import { type ApplyContext, applyRules, type DraftItem } from './apply.ts'
import {
  type Classification,
  checkClassification,
  classificationOf,
  NO_CLASSIFICATION,
  type Section,
} from './classification.ts'
import { type CompiledRules, compileRules } from './compile.ts'
import { RulesError } from './errors.ts'
import { figureProblem } from './figures.ts'
import { variableName } from './formula.ts'
import type { Piece } from './piece.ts'
import { piecesOf } from './pieces.ts'
import { roundTo } from './rounding.ts'
import { piecesByZone, zonePieces } from './zone-pieces.ts'

/** Rules checked and compiled once, to price any number of bills; throws naming the rows. */
export function compileRuleSet(rules: TakeoffRule[]): CompiledRules {
  const { compiled, problems } = compileRules(rules)
  if (problems.length > 0) throw new RulesError(problems)
  return compiled
}

/** A checked classification system; throws naming the rows. */
export function compileClassification(entries: ClassificationEntry[]): Classification {
  const problems = checkClassification(entries)
  if (problems.length > 0) throw new RulesError(problems)
  return classificationOf(entries)
}

/** Bill settings checked; throws naming the fields that are wrong. */
export function checkedSettings(value: unknown): BillSettings {
  const checked = checkBillSettings(value)
  if ('settings' in checked) return checked.settings
  throw new RulesError(checked.problems.map((message) => ({ message })))
}

/**
 * A project's saved tables as they are handed to the engine's worker (plain data, cloned), with
 * its bill settings and the versions the bill's header names, when there are some.
 */
export type PricingTables = {
  rules: TakeoffRule[]
  classification: ClassificationEntry[]
  settings?: BillSettings
  versions?: PricingVersions
}

/** The bill priced with tables given as rows: checked and compiled here, throws naming the rows. */
export function priceWithTables(boq: Boq, tables: PricingTables): PricedBill {
  return priceBill(
    boq,
    compileRuleSet(tables.rules),
    compileClassification(tables.classification),
    {
      ...(tables.settings ? { settings: checkedSettings(tables.settings) } : {}),
      ...(tables.versions ? { versions: tables.versions } : {}),
    },
  )
}

/** The versions of the project's tables a bill was priced with, for its header. */
export type PricingVersions = Pick<
  PricedHeader,
  'rulesVersion' | 'classificationVersion' | 'settingsVersion'
>

/** What besides the rules shapes a priced bill: the bill settings (checked) and the versions. */
export type PricingOptions = { settings?: BillSettings; versions?: PricingVersions }

/**
 * The priced bill of a kept result: its measured pieces through the rules, items named and
 * grouped by the classification (or by their codes' first segments), numbered and priced.
 * Needs nothing but the result: no drawing is read.
 */
export function priceBill(
  boq: Boq,
  rules: CompiledRules,
  classification: Classification = NO_CLASSIFICATION,
  { settings = {}, versions = {} }: PricingOptions = {},
): PricedBill {
  const { pieces, warnings } = pricedPieces(boq, rules)
  const zoneTags = (boq.zones ?? []).flatMap((zone) => Object.keys(zone.attributes ?? {}))
  const context: ApplyContext = {
    units: boq.units,
    titleOf: classification.titleOf,
    pieceVariables: new Set(
      [...boq.attributeTags, ...boq.propertyNames, ...zoneTags].map(variableName),
    ),
  }
  const applied = applyRules(rules, pieces, context)
  const currency = settings.currency ? currencyOf(settings.currency) : null
  const amountDecimals = currency?.decimals ?? DEFAULT_AMOUNT_DECIMALS
  const billing: Billing = {
    decimalsOf: (unit) => unitDecimals(unit, settings.decimals),
    amountDecimals,
  }
  const { sections, items, total: itemsTotal } = arrange(applied.items, classification, billing)
  const adjusted = adjust(itemsTotal, settings.adjustments ?? [], {
    amountDecimals,
    unitDecimals: settings.decimals ?? {},
  })
  const lineOrder = new Map(boq.bill.map((line, i) => [line.ref, i]))
  const byLine = (a: { line: string }, b: { line: string }) =>
    (lineOrder.get(a.line) ?? 0) - (lineOrder.get(b.line) ?? 0)
  return {
    currency,
    header: { ...headerOf(settings), ...versions },
    sections,
    items,
    itemsTotal,
    adjustments: adjusted.adjustments,
    total: adjusted.total,
    notClassified: applied.notClassified.sort(byLine).map(withUniqueHandles),
    ignored: applied.ignored.sort((a, b) => a.rule - b.rule || byLine(a, b)).map(withUniqueHandles),
    rules: rules.rules,
    warnings: [...warnings, ...adjusted.warnings],
  }
}

function headerOf({ title, client, reference }: BillSettings): PricedHeader {
  return {
    ...(title ? { title } : {}),
    ...(client ? { client } : {}),
    ...(reference ? { reference } : {}),
  }
}

/** How figures are billed: the decimals of each unit's quantities, and of amounts. */
type Billing = { decimalsOf: (unit: string) => number; amountDecimals: number }

/**
 * Items into sections (in the classification's order), each in rule order, numbered 1, 2…, with
 * the subtotals and the total. Each quantity is billed rounded to its unit's decimals and each
 * amount is the billed quantity × the rate rounded to the amounts' decimals, so that every line
 * multiplies out as printed; subtotals and the total are sums of the amounts as billed. An amount
 * that would take its item, subtotal or total past the largest figure is left out of them,
 * flagged on its item.
 */
function arrange(
  drafts: DraftItem[],
  classification: Classification,
  billing: Billing,
): { sections: PricedSection[]; items: PricedItem[]; total: number } {
  const bySection = new Map<string, { section: Section; drafts: DraftItem[] }>()
  for (const draft of drafts) {
    const section = classification.sectionOf(draft.code)
    const entry = bySection.get(section.code) ?? { section, drafts: [] }
    entry.drafts.push(draft)
    bySection.set(section.code, entry)
  }
  const ordered = [...bySection.values()].sort((a, b) =>
    classification.compare(a.section, b.section),
  )
  const sections: PricedSection[] = []
  const items: PricedItem[] = []
  let total = 0
  for (const { section, drafts: list } of ordered) {
    list.sort((a, b) => Math.min(...a.rules) - Math.min(...b.rules))
    const refs: string[] = []
    let subtotal = 0
    for (const draft of list) {
      const decimals = billing.decimalsOf(draft.unit)
      const quantity = roundTo(draft.quantity, decimals)
      const billed = (figure: number) => roundTo(figure, billing.amountDecimals)
      let amount = draft.rate === null ? null : billed(quantity * draft.rate)
      let problem: string | null = null
      if (amount !== null) {
        const own = figureProblem(amount)
        const inSection = figureProblem(subtotal + amount)
        const inTotal = figureProblem(total + amount)
        if (own) problem = `its amount ${amount} is ${own}`
        else if (inSection) problem = `with its amount the section's subtotal would be ${inSection}`
        else if (inTotal) problem = `with its amount the total would be ${inTotal}`
      }
      if (problem || amount === null) amount = null
      else {
        // Rounded again: a sum of figures in cents holds binary noise (0.1 + 0.2).
        subtotal = billed(subtotal + amount)
        total = billed(total + amount)
      }
      const ref = `${items.length + 1}`
      const item = priced(draft, section.code, ref, { quantity, decimals, amount }, problem)
      refs.push(item.ref)
      items.push(item)
    }
    sections.push({ ...section, items: refs, subtotal })
  }
  return { sections, items, total }
}

function priced(
  draft: DraftItem,
  section: string,
  ref: string,
  { quantity, decimals, amount }: { quantity: number; decimals: number; amount: number | null },
  amountProblem: string | null,
): PricedItem {
  const flags = amountProblem ? [`${amountProblem}: left out of the amounts`] : []
  if (quantity === 0 && draft.quantity !== 0) {
    flags.push(
      `its quantity ${draft.quantity} ${draft.unit} is billed as 0 at ${decimals} decimals`,
    )
  }
  flags.push(...draft.flags)
  if (draft.flagsUntold > 0) flags.push(`and ${draft.flagsUntold} more like these`)
  return {
    ref,
    section,
    code: draft.code,
    description: draft.description,
    unit: draft.unit,
    quantity,
    measuredQuantity: draft.quantity,
    decimals,
    rate: draft.rate,
    amount,
    rules: [...draft.rules].sort((a, b) => a - b),
    sources: [...draft.sources.values()].map(withUniqueHandles),
    flags,
    ...(draft.byZone ? { byZone: itemByZone(draft.byZone, draft.quantity) } : {}),
  }
}

/** An item's quantity by zone, in the zones' order (Z1, Z2…), unallocated last, adding up to it. */
function itemByZone(parts: Map<string | null, number>, quantity: number): ByZone {
  const order = (zone: string) => Number(zone.slice(1)) || 0
  const entries = [...parts]
    .filter((entry): entry is [string, number] => entry[0] !== null && entry[1] !== 0)
    .sort(([a], [b]) => order(a) - order(b))
  return byZoneOf(
    entries.map(([zone, q]) => ({ zone, quantity: q })),
    quantity,
    new Map(entries.map(([zone], i) => [zone, i])),
  )
}

/** The kept result's pieces, with its zones as pieces and told apart by zone as the rules ask. */
function pricedPieces(boq: Boq, rules: CompiledRules): { pieces: Piece[]; warnings: string[] } {
  const { pieces, warnings } = piecesOf(boq)
  const zones = boq.zones
  const zoneRows = rules.groups.zone.flatMap((group) => group.rows.map((row) => row.rule))
  if (!zones && (zoneRows.length > 0 || rules.zoneFiltered.length > 0)) {
    const named = [...new Set([...zoneRows, ...rules.zoneFiltered])].sort((a, b) => a - b)
    warnings.push(
      `The bill has no zones (the project has no locations, or the drawing none of their outlines): ${named.length === 1 ? 'rule' : 'rules'} ${named.join(', ')}, which ${named.length === 1 ? 'takes zones or filters' : 'take zones or filter'} by one, ${named.length === 1 ? 'prices' : 'price'} nothing by zone.`,
    )
    return { pieces, warnings }
  }
  if (!zones) return { pieces, warnings }
  const told = rules.zoneFiltered.length > 0 ? piecesByZone(pieces, zones) : pieces
  if (zoneRows.length > 0) for (const piece of zonePieces(zones)) told.push(piece)
  return { pieces: told, warnings }
}

/** A reference holding nested ones is named once, though it gave several pieces. */
function withUniqueHandles<T extends { handles: string[] }>(entry: T): T {
  if (entry.handles.length > 1) entry.handles = [...new Set(entry.handles)]
  return entry
}
