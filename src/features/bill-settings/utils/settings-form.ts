import {
  type Adjustment,
  type AdjustmentKind,
  type BillSettings,
  checkBillSettings,
} from '#contract/bill-settings.ts'

/** A unit's decimals as the table edits them: text until sent. */
export type DecimalsRow = { id: number; unit: string; decimals: string }

/**
 * An adjustment as its row edits it. Every kind's fields are kept, so that changing the kind and
 * back loses nothing; only the kind's own are sent.
 */
export type AdjustmentRow = {
  id: number
  kind: AdjustmentKind
  name: string
  /** A percentage's and a tax's. */
  percent: string
  /** A fixed sum's. */
  amount: string
  /** A manual item's. */
  quantity: string
  unit: string
  rate: string
  omit: boolean
}

/** The bill settings as the page edits them. */
export type SettingsForm = {
  /** An ISO code, or '' for none. */
  currency: string
  title: string
  client: string
  reference: string
  decimals: DecimalsRow[]
  adjustments: AdjustmentRow[]
}

let lastId = 0
/** A row's identity while edited (its place changes when rows move). */
const nextId = () => {
  lastId++
  return lastId
}

const numberText = (value: number | undefined) => (value === undefined ? '' : String(value))

/** What a new adjustment of a kind starts with: figures that check, to be typed over. */
export function newAdjustment(kind: AdjustmentKind = 'percent'): AdjustmentRow {
  return {
    id: nextId(),
    kind,
    name: '',
    percent: '0',
    amount: '0',
    quantity: '0',
    unit: 'nr',
    rate: '0',
    omit: false,
  }
}

export function newDecimals(): DecimalsRow {
  return { id: nextId(), unit: '', decimals: '2' }
}

function adjustmentRow(adjustment: Adjustment): AdjustmentRow {
  const row = { ...newAdjustment(adjustment.kind), name: adjustment.name }
  switch (adjustment.kind) {
    case 'percent':
    case 'tax':
      return { ...row, percent: numberText(adjustment.percent) }
    case 'sum':
      return { ...row, amount: numberText(adjustment.amount) }
    case 'item':
      return {
        ...row,
        quantity: numberText(adjustment.quantity),
        unit: adjustment.unit,
        rate: numberText(adjustment.rate),
        omit: adjustment.omit === true,
      }
  }
}

/** The page's fields for saved settings. */
export function formOf(settings: BillSettings): SettingsForm {
  return {
    currency: settings.currency ?? '',
    title: settings.title ?? '',
    client: settings.client ?? '',
    reference: settings.reference ?? '',
    decimals: Object.entries(settings.decimals ?? {}).map(([unit, decimals]) => ({
      id: nextId(),
      unit,
      decimals: String(decimals),
    })),
    adjustments: (settings.adjustments ?? []).map(adjustmentRow),
  }
}

/** A typed figure; blank or not a number is NaN, which the schema refuses as not a number. */
function figureOf(text: string): number {
  const trimmed = text.trim()
  return trimmed === '' ? Number.NaN : Number(trimmed)
}

function adjustmentOf(row: AdjustmentRow): Adjustment {
  const name = row.name.trim()
  switch (row.kind) {
    case 'percent':
      return { kind: 'percent', name, percent: figureOf(row.percent) }
    case 'tax':
      return { kind: 'tax', name, percent: figureOf(row.percent) }
    case 'sum':
      return { kind: 'sum', name, amount: figureOf(row.amount) }
    case 'item':
      return {
        kind: 'item',
        name,
        quantity: figureOf(row.quantity),
        unit: row.unit.trim(),
        rate: figureOf(row.rate),
        ...(row.omit ? { omit: true } : {}),
      }
  }
}

/**
 * What the fields say, as the settings a save sends: blank texts left out (the bill's defaults),
 * the decimals by unit, the adjustments in their order. Not yet checked.
 */
export function settingsOf(form: SettingsForm): BillSettings {
  const text = (value: string) => {
    const trimmed = value.trim()
    return trimmed === '' ? undefined : trimmed
  }
  const settings: BillSettings = {}
  const currency = text(form.currency)
  if (currency) settings.currency = currency
  for (const key of ['title', 'client', 'reference'] as const) {
    const value = text(form[key])
    if (value) settings[key] = value
  }
  if (form.decimals.length > 0) {
    settings.decimals = Object.fromEntries(
      form.decimals.map((row) => [row.unit.trim(), figureOf(row.decimals)]),
    )
  }
  if (form.adjustments.length > 0) settings.adjustments = form.adjustments.map(adjustmentOf)
  return settings
}

/**
 * The fields checked as the server checks them (the contract's schema), and a unit named twice
 * (an object keeps one of them): the settings to send, or every problem, one line per field.
 */
export function checkForm(form: SettingsForm): { settings: BillSettings } | { problems: string[] } {
  const seen = new Set<string>()
  const twice: string[] = []
  for (const row of form.decimals) {
    const unit = row.unit.trim()
    if (unit !== '' && seen.has(unit))
      twice.push(`decimals of ${JSON.stringify(unit)}: named twice`)
    seen.add(unit)
  }
  const checked = checkBillSettings(settingsOf(form))
  if (twice.length === 0) return checked
  return { problems: [...twice, ...('problems' in checked ? checked.problems : [])] }
}

/** Rows of a list with one moved a step up (-1) or down (1); the same list when it cannot move. */
export function moved<Row extends { id: number }>(rows: Row[], id: number, by: -1 | 1): Row[] {
  const from = rows.findIndex((row) => row.id === id)
  const to = from + by
  if (from < 0 || to < 0 || to >= rows.length) return rows
  const next = [...rows]
  const [row] = next.splice(from, 1)
  if (row) next.splice(to, 0, row)
  return next
}
