import { type BillOptions, STATED_UNITS, type StatedUnit, type UnitSystem } from '../boq/schema.ts'
import { printable } from '../cloud/names.ts'
import { AppError } from '../errors.ts'

export type { StatedUnit, UnitSystem }

/**
 * The bill's units as the person chose them for one extraction: the optional `units` field of
 * POST /api/boq/extract, kept with the job and shown in its JSON. Both parts are optional:
 * without `system` the bill follows the drawing (metric drawings in m and m², imperial ones in ft
 * and ft², unitless ones in their own units); `drawingUnits` is the unit of a drawing that does
 * not state one. The app imports these types (type-only), so the shape is written here once.
 */
export interface ExtractUnits {
  system?: UnitSystem
  drawingUnits?: StatedUnit
}

/** Every unit system once: `satisfies` fails the type-check when this and UnitSystem drift apart. */
const SYSTEMS = { metric: true, imperial: true, drawing: true } satisfies Record<UnitSystem, true>

export const UNIT_SYSTEMS = Object.keys(SYSTEMS) as UnitSystem[]
export { STATED_UNITS }

const FIELDS = ['system', 'drawingUnits'] as const

const quoted = (values: readonly string[]) => values.map((v) => `"${v}"`)
const oneOf = (values: readonly string[]) => {
  const all = quoted(values)
  return `${all.slice(0, -1).join(', ')} or ${all.at(-1)}`
}

/** The field's shape as the 400 answers spell it out. */
export const UNITS_SHAPE = `{"system"?: ${quoted(UNIT_SYSTEMS).join(' | ')}, "drawingUnits"?: ${quoted(STATED_UNITS).join(' | ')}}`

/**
 * Checks the `units` field of an extraction request. Absent, null or `{}` is no choice
 * (undefined): the bill as by default. Anything else than the documented shape throws AppError 400
 * naming the allowed values.
 */
export function parseExtractUnits(value: unknown): ExtractUnits | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new AppError(400, `units must be a JSON object: ${UNITS_SHAPE}.`)
  }
  const record = value as Record<string, unknown>
  const unknown = Object.keys(record).filter((key) => !(FIELDS as readonly string[]).includes(key))
  if (unknown.length > 0) {
    throw new AppError(
      400,
      `units takes only "system" and "drawingUnits", not ${quoted(unknown.map(short)).join(', ')}: ${UNITS_SHAPE}.`,
    )
  }
  const units: ExtractUnits = {}
  const { system, drawingUnits } = record
  if (system !== undefined) {
    if (!isOneOf(system, UNIT_SYSTEMS)) {
      throw new AppError(
        400,
        `units.system must be ${oneOf(UNIT_SYSTEMS)} (or left out for units by the drawing), not ${shown(system)}.`,
      )
    }
    units.system = system
  }
  if (drawingUnits !== undefined) {
    if (!isOneOf(drawingUnits, STATED_UNITS)) {
      throw new AppError(
        400,
        `units.drawingUnits must be ${oneOf(STATED_UNITS)} (or left out for a drawing without units to stay in its own), not ${shown(drawingUnits)}.`,
      )
    }
    units.drawingUnits = drawingUnits
  }
  return units.system || units.drawingUnits ? units : undefined
}

/** What the engine is given for a job's choice; undefined when there is none (the default bill). */
export function billOptionsOf(units: ExtractUnits | undefined): BillOptions | undefined {
  if (!units?.system && !units?.drawingUnits) return undefined
  const options: BillOptions = {}
  if (units.system) options.units = units.system
  if (units.drawingUnits) options.drawingUnits = units.drawingUnits
  return options
}

function isOneOf<T extends string>(value: unknown, values: readonly T[]): value is T {
  return typeof value === 'string' && (values as readonly string[]).includes(value)
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
