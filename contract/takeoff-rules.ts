import * as v from 'valibot'
import { BILL_KINDS } from './bill-kinds.ts'
import { ADJUSTMENT_KINDS, CurrencySchema } from './bill-settings.ts'
import { unitDecimals } from './figures.ts'
import { ByZoneSchema } from './locations.ts'

export { MAX_FIGURE } from './figures.ts'

/**
 * Takeoff rules and the priced bill they give: an ordered table of rules turns the measured
 * bill (counts, linework, areas) into priced items. The server validates rules row by row (its
 * messages name the row); these shapes are what crosses the wire once they are valid.
 */

/**
 * Which measured quantity a rule takes: placed references, linework, closed areas; or `zone`,
 * each zone the locations find (a room schedule: its `area` and `perimeter`, its room tag's
 * values).
 */
export const RULE_MATCHES = [...BILL_KINDS, 'zone'] as const
export type RuleMatch = (typeof RULE_MATCHES)[number]

/** The columns of a rules table, in the order files and screens show them. */
export const RULE_COLUMNS = [
  'match',
  'block',
  'layer',
  'kind',
  'attribute',
  'visibility',
  'zone',
  'code',
  'description',
  'unit',
  'quantity',
  'rate',
  'ignore',
] as const
export type RuleColumn = (typeof RULE_COLUMNS)[number]

/** The most rows a rule set or a classification may have. */
export const MAX_RULE_ROWS = 10_000
/** The largest rules or classification file read. */
export const MAX_RULES_FILE_BYTES = 1024 * 1024

/** The columns of text (the others: match, rate, ignore), in the table's order. */
export const RULE_TEXT_COLUMNS = [
  'block',
  'layer',
  'kind',
  'attribute',
  'visibility',
  'zone',
  'code',
  'description',
  'unit',
  'quantity',
] as const satisfies readonly RuleColumn[]

/** The longest cell taken: a formula or glob past it is a mistake, and deep nesting a risk. */
export const MAX_RULE_CELL_LENGTH = 1000

const text = v.pipe(v.string(), v.maxLength(MAX_RULE_CELL_LENGTH))

/** One row of the table. Filters are globs (`*`, `?`, case-insensitive); empty is "any". */
export const TakeoffRuleSchema = v.strictObject({
  match: v.picklist(RULE_MATCHES),
  /** Effective block name (count rows). */
  block: v.optional(text),
  layer: v.optional(text),
  /** Entity kinds, comma-separated (length and area rows): line, arc, …; hatch, polyline, circle, ellipse. */
  kind: v.optional(text),
  /** `TAG=glob` on an attribute's value (count rows). */
  attribute: v.optional(text),
  /** A dynamic block's visibility state (count rows). */
  visibility: v.optional(text),
  /** The zone a piece lies in, by its name or its path (any match; with locations). */
  zone: v.optional(text),
  code: v.optional(text),
  /** Empty: the code's title in the classification. */
  description: v.optional(text),
  /** Empty: the bill's unit for the match (nr, m, m², ft, ft²). */
  unit: v.optional(text),
  /** A formula per measured piece; empty: the measured quantity, in the item's unit. */
  quantity: v.optional(text),
  /** Per item unit, at most MAX_FIGURE either way (checked with the rows); null or absent: not priced. */
  rate: v.optional(v.nullable(v.number())),
  /** Leaves what the row matches out of the bill, listed as such. */
  ignore: v.optional(v.boolean()),
})
export type TakeoffRule = v.InferOutput<typeof TakeoffRuleSchema>

export const TakeoffRuleSetSchema = v.object({
  rules: v.pipe(v.array(TakeoffRuleSchema), v.maxLength(MAX_RULE_ROWS)),
})
export type TakeoffRuleSet = v.InferOutput<typeof TakeoffRuleSetSchema>

/** One code of a classification system; `parent` empty at the top level. */
export const ClassificationEntrySchema = v.strictObject({
  code: text,
  title: text,
  parent: v.optional(text),
})
export type ClassificationEntry = v.InferOutput<typeof ClassificationEntrySchema>

/** Measured pieces of one bill line, as one item, the ignored or the not classified list took them. */
export const PricedSourceSchema = v.object({
  /** The measured bill line (A1, B2, C3…). */
  line: v.string(),
  /** What was measured, in the bill's unit of the line. */
  measured: v.number(),
  /** Entities (or references) measured. */
  count: v.number(),
  /** What they gave the item, in the item's unit (absent outside items). */
  quantity: v.optional(v.number()),
  handles: v.array(v.string()),
})
export type PricedSource = v.InferOutput<typeof PricedSourceSchema>

export const PricedItemSchema = v.pipe(
  v.object({
    ref: v.string(),
    /** The section's code (its top-level classification code, or the code's first segment). */
    section: v.string(),
    code: v.string(),
    description: v.string(),
    unit: v.string(),
    /** The billed quantity: `measuredQuantity` rounded to `decimals`. What every output shows. */
    quantity: v.number(),
    /** What the rules gave, unrounded (a bill kept before billed quantities: `quantity`). */
    measuredQuantity: v.optional(v.number()),
    /** The decimals of the item's unit (bill settings; by default 0 for `nr`, else 2). */
    decimals: v.optional(v.number()),
    rate: v.nullable(v.number()),
    /**
     * The billed quantity × rate, rounded to the currency's decimals; null when not priced, or when
     * it would pass MAX_FIGURE (then flagged).
     */
    amount: v.nullable(v.number()),
    /** The rules (1-based, in the rules used) that gave it. */
    rules: v.array(v.number()),
    sources: v.array(PricedSourceSchema),
    /** Why the quantity may be incomplete or approximate; empty when it is not. */
    flags: v.array(v.string()),
    /** With zones: `measuredQuantity` by zone, unallocated as zone null; the parts add up to it. */
    byZone: v.optional(ByZoneSchema),
  }),
  // A bill kept before quantities were billed reads as one: its quantities as they were.
  v.transform((item) => ({
    ...item,
    measuredQuantity: item.measuredQuantity ?? item.quantity,
    decimals: item.decimals ?? unitDecimals(item.unit),
  })),
)
export type PricedItem = v.InferOutput<typeof PricedItemSchema>

export const PricedSectionSchema = v.object({
  code: v.string(),
  title: v.string(),
  /** Item refs, in order. */
  items: v.array(v.string()),
  /** The sum of its items' amounts, as billed. */
  subtotal: v.number(),
})
export type PricedSection = v.InferOutput<typeof PricedSectionSchema>

/** Measured pieces no rule took: their line, and what a rule for them would match. */
export const NotClassifiedSchema = v.object({
  line: v.string(),
  match: v.picklist(RULE_MATCHES),
  description: v.string(),
  block: v.optional(v.string()),
  layer: v.string(),
  kind: v.optional(v.string()),
  unit: v.string(),
  quantity: v.number(),
  count: v.number(),
  handles: v.array(v.string()),
})
export type NotClassified = v.InferOutput<typeof NotClassifiedSchema>

/** Measured pieces an ignore rule left out on purpose, with that rule. */
export const IgnoredSchema = v.object({
  rule: v.number(),
  line: v.string(),
  description: v.string(),
  unit: v.string(),
  quantity: v.number(),
  count: v.number(),
  handles: v.array(v.string()),
})
export type Ignored = v.InferOutput<typeof IgnoredSchema>

/** An adjustment below the items as billed: what it is, what its amount comes from, its amount. */
export const PricedAdjustmentSchema = v.object({
  kind: v.picklist(ADJUSTMENT_KINDS),
  name: v.string(),
  /** What the amount comes from, as a reader says it: `10% of 5,240.00`, `fixed sum`. */
  basis: v.string(),
  /** Percentages and taxes: the percentage, and the running total (or total before tax) it is of. */
  percent: v.optional(v.number()),
  of: v.optional(v.number()),
  /** Manual items: the billed quantity, its unit and decimals, the rate; `omit` takes it off. */
  quantity: v.optional(v.number()),
  unit: v.optional(v.string()),
  decimals: v.optional(v.number()),
  rate: v.optional(v.number()),
  omit: v.optional(v.boolean()),
  /** Rounded to the currency's decimals; negative for an omission or a discount. */
  amount: v.number(),
})
export type PricedAdjustment = v.InferOutput<typeof PricedAdjustmentSchema>

/**
 * What the bill's header says that the measured result does not: the bill settings' title, client
 * and reference, and the versions of the project's tables that priced it (absent when not known:
 * a file's, or an editor's unsaved table).
 */
export const PricedHeaderSchema = v.object({
  title: v.optional(v.string()),
  client: v.optional(v.string()),
  reference: v.optional(v.string()),
  rulesVersion: v.optional(v.number()),
  classificationVersion: v.optional(v.number()),
  settingsVersion: v.optional(v.number()),
})
export type PricedHeader = v.InferOutput<typeof PricedHeaderSchema>

/** The priced bill: items by section, what was left out, and the rules that made it. */
export const PricedBillSchema = v.pipe(
  v.object({
    /** The bill settings' currency; null without one (amounts to two decimals, no symbol). */
    currency: v.optional(v.nullable(CurrencySchema), null),
    header: v.optional(PricedHeaderSchema, {}),
    sections: v.array(PricedSectionSchema),
    items: v.array(PricedItemSchema),
    /** The sum of the priced items' amounts (a bill kept before adjustments: its `total`). */
    itemsTotal: v.optional(v.number()),
    /** The bill settings' adjustments, in order, below the items. */
    adjustments: v.optional(v.array(PricedAdjustmentSchema), []),
    /** The items' total with every adjustment: what the bill comes to. */
    total: v.number(),
    notClassified: v.array(NotClassifiedSchema),
    ignored: v.array(IgnoredSchema),
    rules: v.array(TakeoffRuleSchema),
    /** What a reader of the priced bill must know (data the measured result does not keep). */
    warnings: v.array(v.string()),
  }),
  v.transform((bill) => ({ ...bill, itemsTotal: bill.itemsTotal ?? bill.total })),
)
export type PricedBill = v.InferOutput<typeof PricedBillSchema>
