import type { ClassificationEntry } from '#contract/takeoff-rules.ts'
import type { RuleProblem } from './errors.ts'
import type { TableRow, TableShape } from './table.ts'

/**
 * A classification system (code, title, parent), as surveyors import one from a spreadsheet:
 * it names items whose rule gives a code without a description, and its top level makes the
 * sections of the priced bill.
 */

export const CLASSIFICATION_TABLE: TableShape = {
  columns: ['code', 'title', 'description', 'parent'],
  listKey: 'classification',
  sheet: 'classification',
}

export type Section = { code: string; title: string }

export type Classification = {
  /** The title of a code in the system. */
  titleOf: (code: string) => string | undefined
  /** The section an item of this code belongs to. */
  sectionOf: (code: string) => Section
  /** Sections in the order the bill lists them. */
  compare: (a: Section, b: Section) => number
}

const naturally = new Intl.Collator('en', { numeric: true }).compare

/** Codes split into levels on dots, dashes and spaces: `23.10.20`, `E-10`, `F 10 20`. */
export function firstSegment(code: string): string {
  return code.trim().split(/[.\- ]/)[0] ?? ''
}

/** Without a system: a section per first segment of the code, in code order. */
export const NO_CLASSIFICATION: Classification = {
  titleOf: () => undefined,
  sectionOf: (code) => ({ code: firstSegment(code), title: '' }),
  compare: (a, b) => naturally(a.code, b.code),
}

/** Rows of text cells → entries; `title` may be headed `description`, as some exports do. */
export function classificationFromRows(rows: TableRow[]): {
  entries: ClassificationEntry[]
  problems: RuleProblem[]
} {
  const entries: ClassificationEntry[] = rows.map(({ cells }) => ({
    code: cells.code ?? '',
    title: cells.title || cells.description || '',
    ...(cells.parent ? { parent: cells.parent } : {}),
  }))
  const problems = checkClassification(entries, (i) => rows[i].row)
  return { entries, problems }
}

/** Codes present and once each, titled, every parent a code of the system, no loops. */
export function checkClassification(
  entries: ClassificationEntry[],
  rowOf: (index: number) => number = (i) => i + 1,
): RuleProblem[] {
  const problems: RuleProblem[] = []
  const first = new Map<string, number>()
  entries.forEach((entry, i) => {
    const row = rowOf(i)
    const code = entry.code.trim()
    if (!code) problems.push({ row, message: 'code is empty' })
    else if (first.has(code))
      problems.push({ row, message: `code '${code}' is already on row ${first.get(code)}` })
    else first.set(code, row)
    if (!entry.title.trim()) problems.push({ row, message: 'title is empty' })
  })
  const parents = new Map(entries.map((e) => [e.code.trim(), e.parent?.trim() ?? '']))
  entries.forEach((entry, i) => {
    const parent = entry.parent?.trim()
    if (!parent) return
    if (!parents.has(parent))
      problems.push({ row: rowOf(i), message: `parent '${parent}' is not a code of the system` })
    else if (loops(entry.code.trim(), parents))
      problems.push({ row: rowOf(i), message: `code '${entry.code.trim()}' is its own ancestor` })
  })
  return problems
}

function loops(code: string, parents: Map<string, string>): boolean {
  const seen = new Set<string>()
  for (let at = code; at; at = parents.get(at) ?? '') {
    if (seen.has(at)) return true
    seen.add(at)
  }
  return false
}

/** A checked system, ready to name and group items. */
export function classificationOf(entries: ClassificationEntry[]): Classification {
  const byCode = new Map(entries.map((e, i) => [e.code.trim(), { entry: e, order: i }]))
  const topOf = (code: string): Section | null => {
    let at = byCode.get(code)
    for (let guard = 0; at?.entry.parent?.trim() && guard < byCode.size; guard++)
      at = byCode.get(at.entry.parent.trim())
    return at ? { code: at.entry.code.trim(), title: at.entry.title.trim() } : null
  }
  // A finer code than the system has (`23.10.20.05` under `23.10.20`) sits under its ancestor.
  const nearest = (code: string): Section | null => {
    for (let end = code.length; end > 0; end--) {
      if (end < code.length && !/[.\- ]/.test(code[end])) continue
      const top = topOf(code.slice(0, end))
      if (top) return top
    }
    return null
  }
  const order = (section: Section) => byCode.get(section.code)?.order ?? Infinity
  return {
    titleOf: (code) => byCode.get(code.trim())?.entry.title.trim(),
    sectionOf: (code) => nearest(code.trim()) ?? NO_CLASSIFICATION.sectionOf(code),
    compare: (a, b) => order(a) - order(b) || naturally(a.code, b.code),
  }
}
