import * as v from 'valibot'
import { ClassificationEntrySchema, TakeoffRuleSchema } from '../../../contract/takeoff-rules.ts'
import type { RowsOf, RulesKind } from './types.ts'

/** What a saved version's rows must be, in either store, as the API checks them before saving. */
const ROWS_SCHEMA = {
  rules: v.array(TakeoffRuleSchema),
  classification: v.array(ClassificationEntrySchema),
}

/** A saved version's rows, checked; throws saying where they do not check (`3.code: …`). */
export function checkedSavedRows<K extends RulesKind>(kind: K, rows: unknown): RowsOf[K] {
  const result = v.safeParse(ROWS_SCHEMA[kind], rows)
  if (result.success) return result.output as RowsOf[K]
  const issue = result.issues[0]
  const path = (issue.path ?? []).map((item) => String(item.key)).join('.')
  throw new Error(`${path ? `${path}: ` : ''}${issue.message}`)
}
