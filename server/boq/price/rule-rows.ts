import {
  RULE_COLUMNS,
  RULE_TEXT_COLUMNS,
  type RuleMatch,
  type TakeoffRule,
} from '#contract/takeoff-rules.ts'
import type { RuleProblem } from './errors.ts'
import type { TableRow, TableShape } from './table.ts'

/** A rules table: one row per rule, these columns. */
export const RULES_TABLE: TableShape = { columns: RULE_COLUMNS, listKey: 'rules', sheet: 'rules' }

const YES = new Set(['yes', 'y', 'true', '1', 'x'])
const NO = new Set(['', 'no', 'n', 'false', '0'])

/** Rows of text cells → rules, with what is wrong in the rate and ignore cells; the rest is checked compiling. */
export function rulesFromRows(
  rows: TableRow[],
  decimalComma = false,
): { rules: TakeoffRule[]; problems: RuleProblem[] } {
  const rules: TakeoffRule[] = []
  const problems: RuleProblem[] = []
  for (const { row, cells } of rows) {
    const wrong = (message: string) => problems.push({ row, message })
    // Checked with the filters, where typed rules are checked too.
    const rule: TakeoffRule = { match: (cells.match ?? '').trim().toLowerCase() as RuleMatch }
    for (const column of RULE_TEXT_COLUMNS) {
      const value = (cells[column] ?? '').trim()
      if (value) rule[column] = value
    }
    const rate = parseRate(cells.rate ?? '', decimalComma)
    if (rate === undefined) wrong(`rate '${cells.rate}' is not a number`)
    else if (rate !== null) rule.rate = rate
    const ignore = (cells.ignore ?? '').trim().toLowerCase()
    if (YES.has(ignore)) rule.ignore = true
    else if (!NO.has(ignore)) wrong(`ignore '${cells.ignore}' is neither yes nor no`)
    rules.push(rule)
  }
  return { rules, problems }
}

/**
 * A rate as spreadsheets show one: `12.50`, `1,234.50`; with a decimal comma (files that Excel
 * writes with semicolons), `12,5` and `1.234,50`. Null when empty (not priced), undefined when
 * not a number.
 */
export function parseRate(text: string, decimalComma = false): number | null | undefined {
  let trimmed = text.trim().replace(/^[£$€]\s*/u, '')
  if (trimmed === '') return null
  if (decimalComma) {
    if (!/^-?\d{1,3}([. ]\d{3})*(,\d+)?$|^-?\d+(,\d+)?$/.test(trimmed)) return undefined
    trimmed = trimmed.replace(/[. ]/g, '').replace(',', '.')
  }
  const plain = /^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(trimmed) ? trimmed.replaceAll(',', '') : trimmed
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(plain)) return undefined
  const value = Number(plain)
  return Number.isFinite(value) ? value : undefined
}
