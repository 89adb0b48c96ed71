import type * as v from 'valibot'
import { type ExtractUnits, STATED_UNITS, UNIT_SYSTEMS } from '#contract/units.ts'
import type { BillOptions } from '../boq/model/schema.ts'
import { printable } from '../cloud/names.ts'

const quoted = (values: readonly string[]) => values.map((value) => `"${value}"`)
const oneOf = (values: readonly string[]) => {
  const all = quoted(values)
  return `${all.slice(0, -1).join(', ')} or ${all.at(-1)}`
}

/** The field's shape as the 400 answers spell it out. */
export const UNITS_SHAPE = `{"system"?: ${quoted(UNIT_SYSTEMS).join(' | ')}, "drawingUnits"?: ${quoted(STATED_UNITS).join(' | ')}}`

/** A schema's issue about a request's fields (each issue's path starts at the field). */
type Issue = v.BaseIssue<unknown>

/**
 * Why the `units` field of an extraction request was refused, in words that name the allowed
 * values: from the schema's issues about it (each issue's path starts at `units`).
 */
export function unitsProblem(issues: readonly Issue[]): string {
  for (const issue of issues) {
    const [, part] = issue.path ?? []
    if (!part) return `units must be a JSON object: ${UNITS_SHAPE}.`
    if (part.origin === 'key') {
      const given = Object.keys(part.input as object)
      const unknown = given.filter((key) => key !== 'system' && key !== 'drawingUnits')
      return `units takes only "system" and "drawingUnits", not ${quoted(unknown.map(short)).join(', ')}: ${UNITS_SHAPE}.`
    }
    if (part.key === 'system') {
      return `units.system must be ${oneOf(UNIT_SYSTEMS)} (or left out for units by the drawing), not ${shown(issue.input)}.`
    }
    if (part.key === 'drawingUnits') {
      return `units.drawingUnits must be ${oneOf(STATED_UNITS)} (or left out for a drawing without units to stay in its own), not ${shown(issue.input)}.`
    }
  }
  return `units must be a JSON object: ${UNITS_SHAPE}.`
}

/** The request with its units only when some were chosen (absent, null or `{}`: none). */
export function withChosenUnits<T extends object>(
  request: T,
  units: ExtractUnits | null | undefined,
): T & { units?: ExtractUnits } {
  return units?.system || units?.drawingUnits ? { ...request, units } : request
}

/** What the engine is given for a job's choice; undefined when there is none (the default bill). */
export function billOptionsOf(units: ExtractUnits | undefined): BillOptions | undefined {
  if (!units?.system && !units?.drawingUnits) return undefined
  const options: BillOptions = {}
  if (units.system) options.units = units.system
  if (units.drawingUnits) options.drawingUnits = units.drawingUnits
  return options
}

/** A JSON value as a reason quotes it, cut short. */
function shown(value: unknown): string {
  return short(JSON.stringify(value) ?? String(value))
}

/** Cut short (whole characters), with invisible and direction-changing characters escaped. */
function short(text: string): string {
  const chars = [...text]
  return printable(chars.length > 40 ? `${chars.slice(0, 40).join('')}…` : text)
}
