import type { SettingsForm } from './settings-form'

/** The fields of an adjustment a problem may name. */
const ADJUSTMENT_FIELDS = ['name', 'percent', 'amount', 'quantity', 'unit', 'rate', 'omit'] as const

/**
 * A field of the page, as problems name it and as its input's id ends: `currency`, `title`,
 * `client`, `reference`, `decimals-<row>-unit|decimals`, `adjustment-<row>-<field>` (`-kind` for the row
 * as a whole), `decimals` and `adjustments` (a table as a whole).
 */
export type FieldKey = string

/** The DOM id of a field's input, and of what is said about it. */
export const fieldId = (key: FieldKey) => `bill-settings-${key}`
export const problemId = (key: FieldKey) => `bill-settings-${key}-problem`

export type PlacedProblem = {
  key: FieldKey
  /** The field as the summary names it: `Currency`, `Adjustment 2 (Contingency), percent`. */
  label: string
  /** What is wrong, as a sentence: `Must be from -100 to 1000.` */
  message: string
}

/** The page's problems: by field, and those about no field (said as they came). */
export type Problems = { placed: PlacedProblem[]; general: string[] }

export const NO_PROBLEMS: Problems = { placed: [], general: [] }

/** `must be a number` → `Must be a number.`, as the server words its lines. */
export function sentence(text: string): string {
  const capital = text.charAt(0).toUpperCase() + text.slice(1)
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`
}

const HEADER_FIELDS: Record<string, { key: FieldKey; label: string }> = {
  currency: { key: 'currency', label: 'Currency' },
  title: { key: 'title', label: 'Title' },
  client: { key: 'client', label: 'Client' },
  reference: { key: 'reference', label: 'Reference' },
  decimals: { key: 'decimals', label: 'Decimals' },
  adjustments: { key: 'adjustments', label: 'Adjustments' },
}

/**
 * Where one problem line belongs. Lines name their field as the contract words them (the
 * server's 400 and the page's own check alike): `Currency: …`, `Decimals of "m²": …`,
 * `Adjustment 2 (Contingency), percent: …`, `Adjustments: …`.
 */
function place(line: string, form: SettingsForm): PlacedProblem | null {
  const text = line.trim().replace(/\.$/, '')
  const header = /^(\w+): ([\s\S]*)$/.exec(text)
  const known = header && HEADER_FIELDS[(header[1] ?? '').toLowerCase()]
  if (header && known) return { ...known, message: sentence(header[2] ?? '') }

  const unit = /^decimals of ("(?:[^"\\]|\\.)*"): ([\s\S]*)$/i.exec(text)
  if (unit) {
    const named = JSON.parse(unit[1] ?? '""') as string
    const message = unit[2] ?? ''
    const rows = form.decimals.filter((row) => row.unit.trim() === named)
    // A unit named twice is the later row's to change.
    const row = /twice/.test(message) ? rows.at(-1) : rows[0]
    if (!row) return null
    // The unit's own problems are its name's; the others its figure's.
    const ofName = /unit must|twice/.test(message)
    return {
      key: `decimals-${row.id}-${ofName ? 'unit' : 'decimals'}`,
      label: named === '' ? 'A unit with no name' : `Decimals of ${named}`,
      message: sentence(message),
    }
  }

  const adjustment = /^adjustment (\d+)/i.exec(text)
  if (adjustment) {
    const number = Number(adjustment[1])
    const row = form.adjustments[number - 1]
    if (!row) return null
    let rest = text.slice(adjustment[0].length)
    // Its name as the line quotes it (the first 40 characters), which may hold any character.
    const called = ` (${row.name.trim().slice(0, 40)})`
    if (rest.startsWith(called)) rest = rest.slice(called.length)
    else rest = rest.replace(/^ \([^)]*\)/, '')
    const parts = /^(?:, (\w+))?: ([\s\S]*)$/.exec(rest)
    if (!parts) return null
    const field = ADJUSTMENT_FIELDS.find((one) => one === parts[1])
    const name = row.name.trim()
    return {
      key: `adjustment-${row.id}-${field ?? 'kind'}`,
      label: `Adjustment ${number}${name ? ` (${name})` : ''}${field ? `, ${field}` : ''}`,
      message: sentence(parts[2] ?? ''),
    }
  }
  return null
}

/** Problem lines placed by the field each names; a line naming none is kept whole. */
export function placeProblems(lines: readonly string[], form: SettingsForm): Problems {
  const problems: Problems = { placed: [], general: [] }
  for (const line of lines) {
    if (line.trim() === '') continue
    const placed = place(line, form)
    if (placed) problems.placed.push(placed)
    else problems.general.push(sentence(line.trim()))
  }
  return problems
}

/** The server's 400 answer: one problem a line. */
export const problemLines = (text: string) => text.split('\n').filter((line) => line.trim() !== '')

/** What is said of one field (several problems joined). */
export function problemOf(problems: Problems, key: FieldKey): string | undefined {
  const said = problems.placed.filter((problem) => problem.key === key)
  return said.length === 0 ? undefined : said.map((problem) => problem.message).join(' ')
}

/** Both sets of problems, the server's after the page's own. */
export function mergeProblems(a: Problems, b: Problems): Problems {
  return { placed: [...a.placed, ...b.placed], general: [...a.general, ...b.general] }
}
