import { type Adjustment, type BillSettings, currencyOf } from '#contract/bill-settings.ts'
import { currencyWords } from './currencies'

/** One setting as a person reads it: what (`Currency`, `Adjustment 2`) and its value. */
export type SettingLine = { label: string; text: string }

/** An adjustment in words: `Preliminaries: 10% of the running total`. */
export function adjustmentWords(adjustment: Adjustment): string {
  const name = adjustment.name || 'Unnamed'
  switch (adjustment.kind) {
    case 'percent':
      return `${name}: ${adjustment.percent}% of the running total`
    case 'sum':
      return `${name}: a fixed sum of ${adjustment.amount}`
    case 'item':
      return `${name}: ${adjustment.omit ? 'omit' : 'add'} ${adjustment.quantity} ${adjustment.unit} × ${adjustment.rate}`
    case 'tax':
      return `${name}: tax of ${adjustment.percent}% of the total before tax`
  }
}

/** Every setting, in the page's order, as lines; what is not set says so. */
export function settingLines(settings: BillSettings): SettingLine[] {
  const decimals = Object.entries(settings.decimals ?? {})
  const adjustments = settings.adjustments ?? []
  return [
    {
      label: 'Currency',
      text: settings.currency ? currencyWords(currencyOf(settings.currency)) : 'none',
    },
    { label: 'Title', text: settings.title ?? '(the default title)' },
    { label: 'Client', text: settings.client ?? 'none' },
    { label: 'Reference', text: settings.reference ?? 'none' },
    ...(decimals.length === 0
      ? [{ label: 'Decimals', text: 'the defaults' }]
      : decimals.map(([unit, places]) => ({
          label: `Decimals of ${unit}`,
          text: String(places),
        }))),
    ...(adjustments.length === 0
      ? [{ label: 'Adjustments', text: 'none' }]
      : adjustments.map((adjustment, index) => ({
          label: `Adjustment ${index + 1}`,
          text: adjustmentWords(adjustment),
        }))),
  ]
}

/** A setting another version changed: its value before and after (null: not there). */
export type SettingChange = { label: string; before: string | null; after: string | null }

/** The lines that only say a list is empty: its rows added or removed say what changed. */
const EMPTY_LISTS = new Set(['Decimals', 'Adjustments'])

/** What changed from one version's settings to another's, line by line. */
export function settingChanges(before: BillSettings, after: BillSettings): SettingChange[] {
  const texts = (settings: BillSettings) =>
    new Map(
      settingLines(settings)
        .filter((line) => !EMPTY_LISTS.has(line.label))
        .map((line) => [line.label, line.text]),
    )
  const was = texts(before)
  const now = texts(after)
  const labels = [...new Set([...now.keys(), ...was.keys()])]
  return labels
    .map((label) => ({ label, before: was.get(label) ?? null, after: now.get(label) ?? null }))
    .filter((change) => change.before !== change.after)
}
