// The bill's units as the file-selection screen offers them. The shape and its allowed values are
// the contract's; the label records below must name every allowed value, so the type-check fails
// when the two drift apart.
import type { ExtractUnits, StatedUnit, UnitSystem } from '#contract/units.ts'

/** What the two selects show: '' is each one's default (by the drawing; leave as drawing units). */
export type UnitsChoice = { system: UnitSystem | ''; drawingUnits: StatedUnit | '' }

export const DEFAULT_UNITS: UnitsChoice = { system: '', drawingUnits: '' }

export const SYSTEM_LABELS = {
  metric: 'Metric (m, m²)',
  imperial: 'Imperial (ft, ft²)',
  drawing: 'Drawing units',
} satisfies Record<UnitSystem, string>

export const STATED_LABELS = {
  mm: 'mm',
  cm: 'cm',
  m: 'm',
  in: 'in',
  ft: 'ft',
} satisfies Record<StatedUnit, string>

export const UNIT_SYSTEMS = Object.keys(SYSTEM_LABELS) as UnitSystem[]
export const STATED_UNITS = Object.keys(STATED_LABELS) as StatedUnit[]

const STORAGE_KEY = 'boq.bill-units'

/** The `units` field of the POST: only the choices that differ from the default; none → undefined. */
export function unitsToSend(choice: UnitsChoice): ExtractUnits | undefined {
  const units: ExtractUnits = {}
  if (choice.system) units.system = choice.system
  if (choice.drawingUnits) units.drawingUnits = choice.drawingUnits
  return units.system || units.drawingUnits ? units : undefined
}

/** The choice kept from an earlier visit; the default when none (or an unknown value) is kept. */
export function readUnitsChoice(): UnitsChoice {
  try {
    const kept = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<UnitsChoice>
    return {
      system: UNIT_SYSTEMS.find((s) => s === kept?.system) ?? '',
      drawingUnits: STATED_UNITS.find((u) => u === kept?.drawingUnits) ?? '',
    }
  } catch {
    return DEFAULT_UNITS
  }
}

export function saveUnitsChoice(choice: UnitsChoice): void {
  try {
    if (unitsToSend(choice)) localStorage.setItem(STORAGE_KEY, JSON.stringify(choice))
    else localStorage.removeItem(STORAGE_KEY)
  } catch {
    // Storage off or full: the choice holds until the page is left.
  }
}

/** A job's units for a person, or null when the bill followed the drawing. */
export function describeUnits(units: ExtractUnits | null | undefined): string | null {
  if (!units?.system && !units?.drawingUnits) return null
  const system = units.system ? (SYSTEM_LABELS[units.system] ?? units.system) : 'By the drawing'
  return units.drawingUnits
    ? `Units: ${system}; if the drawing has none: ${units.drawingUnits}`
    : `Units: ${system}`
}
