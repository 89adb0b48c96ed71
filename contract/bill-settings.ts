import * as v from 'valibot'
import { MAX_FIGURE } from './figures.ts'
import { savedFields } from './saved-document.ts'

/**
 * A project's bill settings: what a priced bill carries besides its measured items. The currency
 * (an ISO 4217 code; its symbol and decimals come from Intl), the header's title, client and
 * reference, the decimals each unit is billed to, and the adjustments below the items, in order.
 * Versioned like the rules (GET/PUT …/bill-settings with If-Match); the command line reads the
 * same shape from `--settings settings.json`.
 */

/** The longest title, client, reference or adjustment name taken. */
export const MAX_SETTING_TEXT = 200
/** The longest unit named in `decimals` or on a manual item. */
export const MAX_UNIT_LENGTH = 20
/** The most units `decimals` may name, and the most adjustments. */
export const MAX_UNITS = 100
export const MAX_ADJUSTMENTS = 100
/** The most decimals a unit is billed to. */
export const MAX_UNIT_DECIMALS = 6
/** Percentages of a running total: from an omission of all of it to ten times it. */
export const MIN_PERCENT = -100
export const MAX_PERCENT = 1000
/** Tax on the total: from none to all of it again. */
export const MAX_TAX_PERCENT = 100

const text = (max: number) =>
  v.pipe(v.string('must be text'), v.maxLength(max, `must be at most ${max} characters`))

const figure = v.pipe(
  v.number('must be a number'),
  v.finite('must be a finite number'),
  v.minValue(-MAX_FIGURE, `must be at least -${MAX_FIGURE.toExponential()}`),
  v.maxValue(MAX_FIGURE, `must be at most ${MAX_FIGURE.toExponential()}`),
)

const percent = (min: number, max: number) =>
  v.pipe(
    v.number('must be a number'),
    v.finite('must be a finite number'),
    v.minValue(min, `must be from ${min} to ${max}`),
    v.maxValue(max, `must be from ${min} to ${max}`),
  )

/** Whether a code is an ISO 4217 currency this runtime knows (its symbol and decimals). */
export function isCurrencyCode(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false
  const known =
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('currency') : null
  return known ? known.includes(code) : true
}

export const CurrencyCodeSchema = v.pipe(
  v.string('must be text'),
  v.check(
    isCurrencyCode,
    (issue) => `${JSON.stringify(issue.input)} is not an ISO 4217 currency code (EUR, USD, GBP…)`,
  ),
)

/** A currency as a bill shows it: its code, its symbol (`€`) and the decimals of its amounts. */
export const CurrencySchema = v.object({
  code: v.string(),
  symbol: v.string(),
  decimals: v.number(),
})
export type Currency = v.InferOutput<typeof CurrencySchema>

/** The symbol and decimals Intl gives a currency code (`EUR` → `€`, 2; `JPY` → `¥`, 0). */
export function currencyOf(code: string): Currency {
  const format = new Intl.NumberFormat('en', { style: 'currency', currency: code })
  const symbol = format.formatToParts(0).find((part) => part.type === 'currency')?.value ?? code
  return { code, symbol, decimals: format.resolvedOptions().maximumFractionDigits ?? 2 }
}

const name = text(MAX_SETTING_TEXT)

/** The kinds of adjustment, in the order a bill usually lists them. */
export const ADJUSTMENT_KINDS = ['percent', 'sum', 'item', 'tax'] as const
export type AdjustmentKind = (typeof ADJUSTMENT_KINDS)[number]

/**
 * One adjustment below the measured items, applied in order:
 * - `percent`: a percentage of the running total (the items and the adjustments above it):
 *   preliminaries, contingency, overheads and profit; negative for a discount;
 * - `sum`: a fixed amount (a provisional sum);
 * - `item`: a manual item, its quantity billed to its unit's decimals × its rate, added or
 *   (`omit`) taken off;
 * - `tax`: a percentage of the total before tax; taxes come after every other adjustment, and
 *   each is of that same total.
 */
export const AdjustmentSchema = v.variant(
  'kind',
  [
    v.strictObject({
      kind: v.literal('percent'),
      name,
      percent: percent(MIN_PERCENT, MAX_PERCENT),
    }),
    v.strictObject({ kind: v.literal('sum'), name, amount: figure }),
    v.strictObject({
      kind: v.literal('item'),
      name,
      quantity: figure,
      unit: text(MAX_UNIT_LENGTH),
      rate: figure,
      omit: v.optional(v.boolean('must be true or false')),
    }),
    v.strictObject({ kind: v.literal('tax'), name, percent: percent(0, MAX_TAX_PERCENT) }),
  ],
  `must be one of ${ADJUSTMENT_KINDS.join(', ')}`,
)
export type Adjustment = v.InferOutput<typeof AdjustmentSchema>

/** Taxes last: a tax is of the total before tax, so nothing may come after it. */
function taxesLast(adjustments: Adjustment[]): boolean {
  const firstTax = adjustments.findIndex((adjustment) => adjustment.kind === 'tax')
  return (
    firstTax < 0 || adjustments.slice(firstTax).every((adjustment) => adjustment.kind === 'tax')
  )
}

export const BillSettingsSchema = v.pipe(
  // valibot's object schemas take arrays too; a JSON object is what is meant.
  v.custom<object>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    'must be a JSON object',
  ),
  v.strictObject({
    currency: v.optional(CurrencyCodeSchema),
    /** The bill's title; without it "Priced bill of quantities". */
    title: v.optional(name),
    client: v.optional(name),
    reference: v.optional(name),
    /** Decimals of a unit's billed quantities (`{"nr": 0, "m²": 2}`); others by default. */
    decimals: v.optional(
      v.pipe(
        v.record(
          v.pipe(
            v.string(),
            v.minLength(1, 'a unit must be named'),
            v.maxLength(MAX_UNIT_LENGTH, `a unit must be at most ${MAX_UNIT_LENGTH} characters`),
          ),
          v.pipe(
            v.number('must be a number'),
            v.integer('must be a whole number'),
            v.minValue(0, `must be from 0 to ${MAX_UNIT_DECIMALS}`),
            v.maxValue(MAX_UNIT_DECIMALS, `must be from 0 to ${MAX_UNIT_DECIMALS}`),
          ),
        ),
        v.maxEntries(MAX_UNITS, `must name at most ${MAX_UNITS} units`),
      ),
    ),
    adjustments: v.optional(
      v.pipe(
        v.array(AdjustmentSchema, 'must be a list'),
        v.maxLength(MAX_ADJUSTMENTS, `must be at most ${MAX_ADJUSTMENTS}`),
        v.check(taxesLast, 'taxes come last: a tax is of the total before tax'),
      ),
    ),
  }),
)
export type BillSettings = v.InferOutput<typeof BillSettingsSchema>

/** GET/PUT /api/boq/projects/{projectId}/bill-settings (JSON); version 0: none saved (`{}`). */
export const BillSettingsDocumentSchema = v.object({
  ...savedFields,
  settings: BillSettingsSchema,
})
export type BillSettingsDocument = v.InferOutput<typeof BillSettingsDocumentSchema>

/** One kept version in the bill settings' history, newest first (GET …/bill-settings/history). */
export const BillSettingsVersionSchema = v.object({
  version: v.pipe(v.number(), v.integer(), v.minValue(1)),
  savedBy: v.string(),
  savedAt: v.string(),
})
export type BillSettingsVersion = v.InferOutput<typeof BillSettingsVersionSchema>

/**
 * Settings as sent, checked: the settings, or every problem, each naming its field as a person
 * reads it (`adjustment 2 (Contingency): percent must be from -100 to 1000`).
 */
export function checkBillSettings(
  value: unknown,
): { settings: BillSettings } | { problems: string[] } {
  // One problem per field: the first check it fails.
  const result = v.safeParse(BillSettingsSchema, value, { abortPipeEarly: true })
  if (result.success) return { settings: result.output }
  return { problems: result.issues.map((issue) => describeIssue(issue, value)) }
}

function describeIssue(issue: v.BaseIssue<unknown>, value: unknown): string {
  const keys = (issue.path ?? []).map((item) => item.key as string | number)
  const where: string[] = []
  if (keys[0] === 'adjustments' && typeof keys[1] === 'number') {
    const adjustment = (value as { adjustments?: { name?: unknown }[] }).adjustments?.[keys[1]]
    const called = typeof adjustment?.name === 'string' ? ` (${adjustment.name.slice(0, 40)})` : ''
    where.push(`adjustment ${keys[1] + 1}${called}`, ...keys.slice(2).map(String))
  } else if (keys[0] === 'decimals' && keys.length > 1) {
    where.push(`decimals of ${JSON.stringify(keys[1])}`)
  } else {
    where.push(...keys.map(String))
  }
  // A strict object's unknown field: its name is the path's last key.
  const message =
    issue.type === 'strict_object' && keys.length > 0 ? 'is not a setting' : issue.message
  return `${where.length > 0 ? where.join(', ') : 'bill settings'}: ${message}`
}
