import * as v from 'valibot'
import { BILL_KINDS } from './bill-kinds.ts'
import { CurrencySchema } from './bill-settings.ts'
import { ComparedBillSchema } from './compared-bill.ts'

export const CHANGE_STATES = ['added', 'removed', 'changed', 'unchanged'] as const
export type ChangeState = (typeof CHANGE_STATES)[number]

/** One zone's figure of a line before and after (in the newer bill's units). */
export const ZoneChangeSchema = v.object({
  zone: v.nullable(v.string()),
  before: v.number(),
  after: v.number(),
})
export type ZoneChange = v.InferOutput<typeof ZoneChangeSchema>

const zoneFigure = (n: number) => n.toLocaleString('en', { maximumFractionDigits: 3 })

/** The zones whose figure of a line changed: `Kitchen: 1 → 0; Living: 0 → 1`. */
export function zoneMoves(changes: readonly ZoneChange[]): string {
  return changes
    .filter((z) => zoneFigure(z.before) !== zoneFigure(z.after))
    .map((z) => `${z.zone ?? 'Unallocated'}: ${zoneFigure(z.before)} → ${zoneFigure(z.after)}`)
    .join('; ')
}

/** One bill item present in either bill: its quantity before and after, in the same unit. */
export const ChangeLineSchema = v.object({
  /**
   * The line's own item number, which no other line has: its number in the newer bill; for a
   * removed item, its number in the older bill marked so (`B1 (removed)`); for an added item whose
   * newer number the older bill gave another item, the next number of its series neither bill uses.
   */
  ref: v.string(),
  kind: v.picklist(BILL_KINDS),
  description: v.string(),
  /** Count lines: the effective block name. */
  block: v.optional(v.string()),
  /** Count lines split by attributes or visibility: the values of this line. */
  values: v.optional(v.record(v.string(), v.string())),
  /** Length and area lines: the layer. */
  layer: v.optional(v.string()),
  unit: v.string(),
  /** 0 when the item is not in the older bill. */
  before: v.number(),
  /** 0 when the item is not in the newer bill. */
  after: v.number(),
  /** after − before. */
  change: v.number(),
  /** The change in % of `before`; null when there was nothing before. */
  changePercent: v.nullable(v.number()),
  state: v.picklist(CHANGE_STATES),
  /**
   * When both bills have zones: the line's figure in each zone before and after, zones matched
   * by path (`zone` is the path; null: unallocated). A line whose total stays but whose pieces
   * moved between zones is `changed`.
   */
  byZone: v.optional(v.array(ZoneChangeSchema)),
})
export type ChangeLine = v.InferOutput<typeof ChangeLineSchema>

/**
 * The entities the two bills count or measure that only one of them has, by DWG handle: `added`
 * are handles in the newer drawing, `removed` handles in the older one. A block reference whose
 * handle differs but whose block and position are the same is in neither.
 */
export const EntityChangesSchema = v.object({
  added: v.array(v.string()),
  removed: v.array(v.string()),
})
export type EntityChanges = v.InferOutput<typeof EntityChangesSchema>

/** A priced item's figures in one bill: quantity 0, no rate and amount 0 when it is not in it. */
export const ItemFiguresSchema = v.object({
  quantity: v.number(),
  /** null when the bill has the item without a rate. */
  rate: v.nullable(v.number()),
  /** quantity × rate, as the priced bill gives it; null when the bill has it without a rate. */
  amount: v.nullable(v.number()),
})
export type ItemFigures = v.InferOutput<typeof ItemFiguresSchema>

/**
 * One priced item present in either priced bill, matched by code, description and unit (its rate
 * may differ). Amounts are the priced bills' own numbers, in no stated currency.
 */
export const ChangeItemSchema = v.object({
  /** Its number in the newer priced bill; for a removed item, its older number marked so (`3 (removed)`). */
  ref: v.string(),
  code: v.string(),
  description: v.string(),
  unit: v.string(),
  before: ItemFiguresSchema,
  after: ItemFiguresSchema,
  /** The amount after − the amount before, an amount without a rate counted as 0. */
  amountChange: v.number(),
  /**
   * `changed` when the quantity (beyond the measuring tolerance) or the rate differs, or when
   * what it prices moved between zones.
   */
  state: v.picklist(CHANGE_STATES),
  /** With zones in both bills: its quantity zone by zone (by path; null: unallocated). */
  byZone: v.optional(v.array(ZoneChangeSchema)),
})
export type ChangeItem = v.InferOutput<typeof ChangeItemSchema>

/** The priced bills' totals (the sums of their items' amounts) and after − before. */
export const TotalChangeSchema = v.object({
  before: v.number(),
  after: v.number(),
  change: v.number(),
})
export type TotalChange = v.InferOutput<typeof TotalChangeSchema>

/**
 * The change bill between two bills of quantities: every item of either, largest changes first.
 * Both sides are in the newer bill's units (`notes` says when the older one's were converted, or
 * could not be).
 */
export const ChangeBillSchema = v.object({
  from: ComparedBillSchema,
  to: ComparedBillSchema,
  /**
   * Said when the bills are of two different drawings (jobs of different items: another file
   * name, folder or project), to be shown above the change bill: which two they are. Absent for
   * versions of one drawing, and for files whose place is not known (the command line).
   */
  differentDrawings: v.optional(v.string()),
  units: v.object({ length: v.string(), area: v.string() }),
  notes: v.array(v.string()),
  lines: v.array(ChangeLineSchema),
  /**
   * When both bills are priced: every priced item of either, largest change of amount first
   * (unchanged items last). Absent when either is not (`notes` says which one is not).
   */
  items: v.optional(v.array(ChangeItemSchema)),
  /** When both bills are priced: their totals. */
  total: v.optional(TotalChangeSchema),
  /** When both bills are priced in one currency: that currency (`notes` says when they are not). */
  currency: v.optional(CurrencySchema),
  entities: EntityChangesSchema,
})
export type ChangeBill = v.InferOutput<typeof ChangeBillSchema>

export { type ComparedBill, ComparedBillSchema } from './compared-bill.ts'
