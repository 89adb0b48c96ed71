import * as v from 'valibot'
import { type BillSettings, BillSettingsSchema } from '#contract/bill-settings.ts'
import { type LocationRow, LocationRowSchema } from '#contract/locations.ts'
import { ClassificationEntrySchema, TakeoffRuleSchema } from '#contract/takeoff-rules.ts'
import type { RowsOf, RulesKind } from './types.ts'

/** What a saved version's rows must be, in either store, as the API checks them before saving. */
const ROWS_SCHEMA = {
  rules: v.array(TakeoffRuleSchema),
  classification: v.array(ClassificationEntrySchema),
}

/** A saved version's rows, checked; throws saying where they do not check (`3.code: …`). */
export function checkedSavedRows<K extends RulesKind>(kind: K, rows: unknown): RowsOf[K] {
  return checked(ROWS_SCHEMA[kind], rows) as RowsOf[K]
}

/** A saved version's bill settings, checked with the schema a save checks them with. */
export function checkedSavedSettings(settings: unknown): BillSettings {
  return checked(BillSettingsSchema, settings)
}

/** A saved version's locations rows, checked with the schema a save checks them with. */
export function checkedSavedLocations(rows: unknown): LocationRow[] {
  return checked(v.array(LocationRowSchema), rows)
}

function checked<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, value)
  if (result.success) return result.output
  const issue = result.issues[0]
  const path = (issue.path ?? []).map((item) => String(item.key)).join('.')
  throw new Error(`${path ? `${path}: ` : ''}${issue.message}`)
}
