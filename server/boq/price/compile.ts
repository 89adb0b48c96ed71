import { LENGTH_KINDS } from '#contract/boq.ts'
import {
  MAX_RULE_CELL_LENGTH,
  RULE_MATCHES,
  RULE_TEXT_COLUMNS,
  type RuleMatch,
  type TakeoffRule,
} from '#contract/takeoff-rules.ts'
import { quoted, type RuleProblem } from './errors.ts'
import { figureProblem } from './figures.ts'
import { compileFormula, type Formula, isFormulaError } from './formula.ts'
import { compileGlob, type Glob, isGlobError } from './glob.ts'
import { parseItemUnit } from './item-units.ts'
import { ALL_MEASURES, attributeOf, builtInVariables, type Piece } from './piece.ts'

/**
 * Rules checked and made ready to apply, once per rule set: globs and formulas compiled, rows
 * gathered into groups (consecutive rows with the same match and filters), every problem named
 * by its row.
 */

export const KINDS: Record<RuleMatch, readonly string[]> = {
  count: [],
  length: LENGTH_KINDS,
  area: ['hatch', 'polyline', 'circle', 'ellipse'],
  zone: [],
}

export type CompiledRow = {
  /** The rule's number (1-based) in the rules used. */
  rule: number
  ignore: boolean
  code: string
  description: string
  /** As written, lengths and areas in their usual symbols; empty: the bill's unit. */
  unit: string
  rate: number | null
  formula: Formula | null
  /** Names the formula reads that only references can have (attributes, properties). */
  pieceVariables: string[]
}

/** A start the piece's layer or block must have for the group to take it: checked first. */
export type Gate = { field: 'layer' | 'block'; prefix: string }

export type Group = {
  match: RuleMatch
  /** Does the group take this piece? */
  takes: (piece: Piece) => boolean
  gate: Gate | null
  rows: CompiledRow[]
  ignore: boolean
}

export type CompiledRules = {
  rules: TakeoffRule[]
  /** Groups in order, by the match they take. */
  groups: Record<RuleMatch, Group[]>
  /** Rules that filter by zone: each such rule's number (pieces are then told apart by zone). */
  zoneFiltered: number[]
}

const COUNT_ONLY = ['block', 'attribute', 'visibility'] as const
/** A zone is no reference, but its room tag's values are its attributes. */
const NOT_FOR_ZONES = ['block', 'visibility'] as const

const MATCHES_SAID = 'count, length, area or zone'

export function compileRules(
  rules: TakeoffRule[],
  rowOf: (index: number) => number = (i) => i + 1,
): { compiled: CompiledRules; problems: RuleProblem[] } {
  const problems: RuleProblem[] = []
  const groups: Record<RuleMatch, Group[]> = { count: [], length: [], area: [], zone: [] }
  const zoneFiltered: number[] = []
  let previousKey = ''
  let current: Group | null = null
  rules.forEach((rule, index) => {
    const row = rowOf(index)
    const wrong = (message: string) => problems.push({ row, message })
    const before = problems.length
    if (!RULE_MATCHES.includes(rule.match)) {
      wrong(
        rule.match
          ? `unknown match '${rule.match}' (${MATCHES_SAID})`
          : `match is empty (${MATCHES_SAID})`,
      )
      return
    }
    const long = RULE_TEXT_COLUMNS.filter(
      (cell) => (rule[cell]?.length ?? 0) > MAX_RULE_CELL_LENGTH,
    )
    for (const cell of long) wrong(`${cell} is longer than ${MAX_RULE_CELL_LENGTH} characters`)
    if (long.length > 0) return
    const { tests, gate } = filtersOf(rule, wrong)
    const compiledRow = rowOfRule(rule, index + 1, wrong)
    if (problems.length > before) return
    if (rule.zone) zoneFiltered.push(row)
    const key = groupKey(rule)
    if (current && key === previousKey) {
      if (current.ignore !== compiledRow.ignore)
        wrong(
          'it has the same match and filters as the row above, and one of them is an ignore row: give the ignore row filters of its own',
        )
      current.rows.push(compiledRow)
      return
    }
    previousKey = key
    current = {
      match: rule.match,
      takes: (piece) => {
        for (const test of tests) if (!test(piece)) return false
        return true
      },
      gate,
      rows: [compiledRow],
      ignore: compiledRow.ignore,
    }
    groups[rule.match].push(current)
  })
  return { compiled: { rules, groups, zoneFiltered }, problems }
}

/** Equal filters make one group: compared as they match (case and spacing aside). */
function groupKey(rule: TakeoffRule): string {
  const kinds = kindList(rule.kind).map(normalKind).sort().join(',')
  const cells = [rule.block, rule.layer, rule.attribute, rule.visibility, rule.zone].map((cell) =>
    (cell ?? '').trim().toLowerCase(),
  )
  return [rule.match, kinds, ...cells].join('\u0000')
}

function kindList(cell: string | undefined): string[] {
  return (cell ?? '')
    .split(',')
    .map((kind) => kind.trim().toLowerCase().replace(/\s+/g, ' '))
    .filter(Boolean)
}

/** The area kind of a closed polyline, however a person names it. */
function normalKind(kind: string): string {
  return kind === 'closed polyline' ? 'polyline' : kind
}

function filtersOf(
  rule: TakeoffRule,
  wrong: (message: string) => void,
): { tests: ((p: Piece) => boolean)[]; gate: Gate | null } {
  const tests: ((p: Piece) => boolean)[] = []
  let gate: Gate | null = null
  const glob = (column: string, source: string): Glob | null => {
    const compiled = compileGlob(source)
    if (!isGlobError(compiled)) return compiled
    wrong(`${column} ${compiled.error}`)
    return null
  }
  if (rule.match !== 'count') {
    for (const column of rule.match === 'zone' ? NOT_FOR_ZONES : COUNT_ONLY)
      if (rule[column]) wrong(`${column} filters count rows only, not ${rule.match} rows`)
  }
  const measured = rule.match === 'length' || rule.match === 'area'
  if (!measured && rule.kind)
    wrong(`kind filters length and area rows only, not ${rule.match} rows`)

  if (rule.block) {
    const g = glob('block', rule.block)
    if (g) tests.push((p) => p.keys.block !== undefined && g.testLower(p.keys.block))
    if (g?.prefix) gate = { field: 'block', prefix: g.prefix }
  }
  if (rule.layer) {
    const g = glob('layer', rule.layer)
    if (g) tests.push((p) => g.testLower(p.keys.layer))
    if (g?.prefix) gate = { field: 'layer', prefix: g.prefix }
  }
  if (rule.kind && measured) {
    const known = KINDS[rule.match]
    const globs: Glob[] = []
    for (const kind of kindList(rule.kind).map(normalKind)) {
      const g = glob('kind', kind)
      if (!g) continue
      if (!known.some((k) => g.test(k)))
        wrong(
          `kind ${quoted(kind)} is not a kind of ${rule.match === 'length' ? 'linework' : 'area'} (${known.join(', ')})`,
        )
      globs.push(g)
    }
    tests.push((p) => {
      const kind = p.keys.kind
      return kind !== undefined && globs.some((g) => g.testLower(kind))
    })
  }
  if (rule.attribute) {
    const at = rule.attribute.indexOf('=')
    const tag = at > 0 ? rule.attribute.slice(0, at).trim().toUpperCase() : ''
    if (!tag) wrong(`attribute ${quoted(rule.attribute)} must be TAG=value (for instance TYPE=D*)`)
    else {
      const g = glob('attribute', rule.attribute.slice(at + 1).trim())
      if (g)
        tests.push((p) => {
          const value = attributeOf(p, tag)
          return value !== undefined && g.test(value)
        })
    }
  }
  if (rule.visibility) {
    const g = glob('visibility', rule.visibility)
    if (g) tests.push((p) => p.keys.visibility !== undefined && g.testLower(p.keys.visibility))
  }
  if (rule.zone) {
    const g = glob('zone', rule.zone)
    if (g)
      tests.push((p) => {
        const zone = p.keys.zone
        return zone !== undefined && (g.testLower(zone.name) || g.testLower(zone.path))
      })
  }
  return { tests, gate }
}

function rowOfRule(rule: TakeoffRule, number: number, wrong: (m: string) => void): CompiledRow {
  const ignore = rule.ignore === true
  const code = rule.code?.trim() ?? ''
  const description = rule.description?.trim() ?? ''
  const unitCell = rule.unit?.trim() ?? ''
  const unit = unitCell ? parseItemUnit(unitCell) : null
  const row: CompiledRow = {
    rule: number,
    ignore,
    code,
    description,
    unit: unit?.symbol ?? '',
    rate: rule.rate ?? null,
    formula: null,
    pieceVariables: [],
  }
  if (rule.rate !== undefined && rule.rate !== null) {
    const problem = figureProblem(rule.rate)
    if (problem)
      wrong(Number.isFinite(rule.rate) ? `rate ${rule.rate} is ${problem}` : 'rate is not a number')
  }
  if (ignore) return row
  if (!code && !description) wrong('an item needs a code or a description')
  const source = rule.quantity?.trim() ?? ''
  if (source) {
    const formula = compileFormula(source, variableCheck(rule.match))
    if (isFormulaError(formula)) wrong(formula.error)
    else {
      const problem = formula.constant ? constantProblem(formula) : null
      if (problem) wrong(problem)
      row.formula = formula
      row.pieceVariables = formula.variables.filter(
        (v) => !builtInVariables(rule.match).includes(v),
      )
    }
  } else if (unit) {
    // Without a formula, the measured quantity itself (a zone's: its area): only its own
    // dimension converts.
    const dimension = rule.match === 'count' ? 'other' : rule.match === 'length' ? 'length' : 'area'
    if (unit.dimension !== dimension) {
      wrong(
        rule.match === 'count'
          ? `a count is in nr, not ${unit.symbol}: give a quantity formula`
          : `unit '${unit.symbol}' is not ${dimension === 'length' ? 'a length' : 'an area'}: give a quantity formula, or ${dimension === 'length' ? 'a length unit (m, mm, ft…)' : 'an area unit (m², ft²…)'}`,
      )
    }
  }
  return row
}

/** Why a formula of no variable gives no usable quantity (its one figure, for every piece). */
function constantProblem(formula: Formula): string | null {
  const value = formula.evaluate(() => Number.NaN)
  const problem = figureProblem(value)
  return problem && `formula '${formula.source}' gives ${value} for every piece, ${problem}`
}

/** Count rows may read attributes and properties, known only once a drawing is measured. */
function variableCheck(match: RuleMatch): (name: string) => string | null {
  const own = builtInVariables(match)
  return (name) => {
    if (own.includes(name)) return null
    if ((ALL_MEASURES as readonly string[]).includes(name))
      return `${name} is not measured for ${match} rows (${own.join(', ')})`
    // A reference's attributes and a zone's room tag are known only once a drawing is measured.
    if (match === 'count' || match === 'zone') return null
    return `${name} is not a variable of ${match} rows (${own.join(', ')})`
  }
}
