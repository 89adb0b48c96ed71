import type { Currency } from '#contract/bill-settings.ts'
import type { ChangeItem, ChangeState, ItemFigures, TotalChange } from '#contract/compare.ts'
import type { PricedBill, PricedItem } from '#contract/takeoff-rules.ts'
import type { Boq } from '../model/schema.ts'
import { MEASURING_TOLERANCE, sameFigure } from './change-tolerance.ts'
import { movedBetweenZones, type ZoneMatch } from './zone-changes.ts'

/** What comparing two priced bills adds to the change bill; nothing when either is not priced. */
export type ItemComparison = { items?: ChangeItem[]; total?: TotalChange; currency?: Currency }

/** An item's figures in a bill that does not have it. */
const ABSENT: ItemFigures = { quantity: 0, rate: null, amount: 0 }

/**
 * The priced items of two priced bills, each item of either once: matched by code, description
 * and unit, whatever their rates (a bill holding two items of one code, description and unit at
 * two rates pairs them rate with rate first, then in the bill's order). Each item has the newer
 * bill's number, or its older number marked removed; the largest change of amount comes first,
 * unchanged items last. When only one bill is priced, `notes` says so and no items are given.
 */
export function compareItems(
  before: Boq,
  after: Boq,
  notes: string[],
  zones: ZoneMatch | null = null,
): ItemComparison {
  const older = before.priced
  const newer = after.priced
  if (!older && !newer) return {}
  if (!older || !newer) {
    notes.push(
      `The ${older ? 'later' : 'earlier'} bill was not priced: its items and amounts are not compared.`,
    )
    return {}
  }
  const waiting = new Map<string, PricedItem[]>()
  for (const item of older.items) {
    const key = itemKey(item)
    waiting.set(key, [...(waiting.get(key) ?? []), item])
  }
  if (older.adjustments?.length || newer.adjustments?.length)
    notes.push(
      'The priced bills’ adjustments (preliminaries, sums, tax…) are not compared: the totals are of their items.',
    )
  const matched = new Set<PricedItem>()
  const items: ChangeItem[] = []
  for (const item of newer.items) {
    const candidates = waiting.get(itemKey(item)) ?? []
    const sameRate = candidates.findIndex((was) => was.rate === item.rate)
    const [was] = candidates.splice(Math.max(0, sameRate), 1)
    if (was) matched.add(was)
    const change = changeItem(item.ref, item, was ? figures(was) : ABSENT, figures(item), !was)
    items.push(byZone(change, was, item, zones))
  }
  for (const was of older.items) {
    if (matched.has(was)) continue
    const change = changeItem(`${was.ref} (removed)`, was, figures(was), ABSENT, false, true)
    items.push(byZone(change, was, undefined, zones))
  }
  const order = items.map((item, index) => ({ item, index }))
  order.sort(
    (a, b) =>
      Number(a.item.state === 'unchanged') - Number(b.item.state === 'unchanged') ||
      Math.abs(b.item.amountChange) - Math.abs(a.item.amountChange) ||
      STATE_ORDER[a.item.state] - STATE_ORDER[b.item.state] ||
      a.index - b.index,
  )
  return {
    items: order.map(({ item }) => item),
    total: {
      before: itemsTotal(older),
      after: itemsTotal(newer),
      change: itemsTotal(newer) - itemsTotal(older),
    },
    ...currencyOfBoth(older.currency, newer.currency, notes),
  }
}

/**
 * The sum of a priced bill's items' amounts, which their changes add up to: its adjustments
 * (preliminaries, tax…) are the bill settings', not the drawing's, and are not compared. A bill
 * kept before adjustments has only its total.
 */
function itemsTotal(priced: PricedBill): number {
  return priced.itemsTotal ?? priced.total
}

/** The currency both bills are priced in; a note when they are in two (or only one names one). */
function currencyOfBoth(
  older: Currency | null,
  newer: Currency | null,
  notes: string[],
): { currency?: Currency } {
  if (older?.code === newer?.code) return newer ? { currency: newer } : {}
  const said = (currency: Currency | null) => currency?.code ?? 'no currency'
  notes.push(
    `The earlier bill is priced in ${said(older)} and the later one in ${said(newer)}: their amounts are compared as figures.`,
  )
  return {}
}

/**
 * With zones in both bills, the item's quantity zone by zone; an item whose quantity stayed but
 * whose pieces moved between zones is changed.
 */
function byZone(
  change: ChangeItem,
  was: PricedItem | undefined,
  now: PricedItem | undefined,
  zones: ZoneMatch | null,
): ChangeItem {
  if (!zones) return change
  const changes = zones.changes(was, now, 1)
  const quantities = { before: change.before.quantity, after: change.after.quantity }
  const whole = Number.isInteger(quantities.before) && Number.isInteger(quantities.after)
  const moved =
    change.state === 'unchanged' &&
    movedBetweenZones(changes, whole ? 'count' : 'measured', quantities)
  return { ...change, ...(moved ? { state: 'changed' as const } : {}), byZone: changes }
}

/** The same item in both bills: its code, description and unit. */
function itemKey(item: PricedItem): string {
  return JSON.stringify([item.code, item.description, item.unit])
}

function figures(item: PricedItem): ItemFigures {
  return { quantity: item.quantity, rate: item.rate, amount: item.amount }
}

function changeItem(
  ref: string,
  item: PricedItem,
  before: ItemFigures,
  after: ItemFigures,
  added: boolean,
  removed = false,
): ChangeItem {
  const state: ChangeState = added
    ? 'added'
    : removed
      ? 'removed'
      : before.rate === after.rate && sameQuantity(before.quantity, after.quantity)
        ? 'unchanged'
        : 'changed'
  return {
    ref,
    code: item.code,
    description: item.description,
    unit: item.unit,
    before,
    after,
    // An amount without a rate adds nothing to its bill's total: the changes add up to the total's.
    amountChange: (after.amount ?? 0) - (before.amount ?? 0),
    state,
  }
}

/**
 * Whole quantities (counts, as a rule) must be equal; others, measured, within the tolerance of
 * two readings of one drawing, as the measured lines are.
 */
function sameQuantity(a: number, b: number): boolean {
  if (Number.isInteger(a) && Number.isInteger(b)) return a === b
  return sameFigure(a, b, MEASURING_TOLERANCE)
}

const STATE_ORDER: Record<ChangeState, number> = { added: 0, removed: 0, changed: 1, unchanged: 2 }
