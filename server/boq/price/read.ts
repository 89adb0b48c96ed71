import type { ClassificationEntry, TakeoffRule } from '#contract/takeoff-rules.ts'
import { CLASSIFICATION_TABLE, classificationFromRows } from './classification.ts'
import { compileRules } from './compile.ts'
import { RulesError } from './errors.ts'
import { RULES_TABLE, rulesFromRows } from './rule-rows.ts'
import { readTable, TABLE_FORMATS, type TableFormat } from './table.ts'

/** A file's format from its name (`rules.csv`), or null when it is none of them. */
export function tableFormatOf(fileName: string): TableFormat | null {
  const ext = fileName.toLowerCase().split('.').pop() ?? ''
  return (TABLE_FORMATS as readonly string[]).includes(ext) ? (ext as TableFormat) : null
}

/**
 * A rules file read and checked whole: the rules, or a RulesError naming each row that is wrong
 * (cells, globs, formulas, units, groups), so nothing half-valid is ever kept.
 */
export async function readRules(bytes: Uint8Array, format: TableFormat): Promise<TakeoffRule[]> {
  const { rows, decimalComma } = await readTable(bytes, format, RULES_TABLE)
  const { rules, problems } = rulesFromRows(rows, decimalComma)
  problems.push(...compileRules(rules, (i) => rows[i].row).problems)
  if (problems.length > 0)
    throw new RulesError(problems.sort((a, b) => (a.row ?? 0) - (b.row ?? 0)))
  return rules
}

/** A classification file (code, title, parent) read and checked whole. */
export async function readClassification(
  bytes: Uint8Array,
  format: TableFormat,
): Promise<ClassificationEntry[]> {
  const { rows } = await readTable(bytes, format, CLASSIFICATION_TABLE)
  const { entries, problems } = classificationFromRows(rows)
  if (problems.length > 0) throw new RulesError(problems)
  return entries
}
