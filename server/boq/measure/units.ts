import type { BillOptions, BillUnits, BoqUnits, StatedUnit } from '../model/schema.ts'

type System = 'metric' | 'imperial'

// INSUNITS codes as AutoCAD defines them: [name, length symbol, metres in one unit, system].
const UNITS: Record<number, [string, string, number, System]> = {
  1: ['inches', 'in', 0.0254, 'imperial'],
  2: ['feet', 'ft', 0.3048, 'imperial'],
  3: ['miles', 'mi', 1609.344, 'imperial'],
  4: ['millimetres', 'mm', 0.001, 'metric'],
  5: ['centimetres', 'cm', 0.01, 'metric'],
  6: ['metres', 'm', 1, 'metric'],
  7: ['kilometres', 'km', 1000, 'metric'],
  8: ['microinches', 'µin', 0.0254e-6, 'imperial'],
  9: ['mils', 'mil', 0.0254e-3, 'imperial'],
  10: ['yards', 'yd', 0.9144, 'imperial'],
  11: ['ångströms', 'Å', 1e-10, 'metric'],
  12: ['nanometres', 'nm', 1e-9, 'metric'],
  13: ['microns', 'µm', 1e-6, 'metric'],
  14: ['decimetres', 'dm', 0.1, 'metric'],
  15: ['decametres', 'dam', 10, 'metric'],
  16: ['hectometres', 'hm', 100, 'metric'],
  17: ['gigametres', 'Gm', 1e9, 'metric'],
  18: ['astronomical units', 'AU', 149_597_870_700, 'metric'],
  19: ['light years', 'ly', 9_460_730_472_580_800, 'metric'],
  20: ['parsecs', 'pc', 3.085677581491367e16, 'metric'],
  21: ['US survey feet', 'ft (US survey)', 1200 / 3937, 'imperial'],
}

/** The INSUNITS code of each unit a person may state for a unitless drawing. */
const STATED_CODES: Record<StatedUnit, number> = { in: 1, ft: 2, mm: 4, cm: 5, m: 6 }

export function unitsOf(code: number): BoqUnits {
  const known = UNITS[code]
  if (!known)
    return {
      code: Number.isFinite(code) ? code : 0,
      name: 'unitless',
      length: 'units',
      area: 'units²',
    }
  return { code, name: known[0], length: known[1], area: `${known[1]}²` }
}

/**
 * The bill's units: metric drawings in m, imperial ones in ft, unless the person chose; a
 * drawing without units stays in its own units unless the person states them.
 */
export function billUnits(code: number, options: BillOptions = {}): BillUnits {
  const drawing = unitsOf(code)
  const stated = UNITS[code] ? null : (options.drawingUnits ?? null)
  const known = knownUnit(code, stated)
  const system = known ? (options.units ?? known[3]) : 'drawing'
  if (!known || system === 'drawing') {
    // The drawing's own units: the stated one's symbol when a unitless drawing was given one.
    const length = known && stated ? known[1] : drawing.length
    return { drawing, stated, system, length, area: `${length}²`, lengthFactor: 1, areaFactor: 1 }
  }
  // Metres in one drawing unit, or feet: divided by the metres in a foot (INSUNITS 2).
  const factor = system === 'metric' ? known[2] : known[2] / UNITS[2][2]
  const length = system === 'metric' ? 'm' : 'ft'
  return {
    drawing,
    stated,
    system,
    length,
    area: `${length}²`,
    lengthFactor: factor,
    areaFactor: factor * factor,
  }
}

/**
 * Metres in one of the bill's length units (m, ft, or the drawing's own), or null when the bill is
 * in the units of a drawing that states none.
 */
export function metresPerBillUnit(units: BillUnits): number | null {
  const known = knownUnit(units.drawing.code, units.stated)
  return known ? known[2] / units.lengthFactor : null
}

/** The drawing's unit: the one it states, else the one a person stated for it, else none. */
function knownUnit(code: number, stated: StatedUnit | null) {
  return UNITS[code] ?? (stated ? UNITS[STATED_CODES[stated]] : undefined)
}

const RELEASES: Record<string, string> = {
  AC1009: 'AutoCAD R11/R12',
  AC1012: 'AutoCAD R13',
  AC1014: 'AutoCAD R14',
  AC1015: 'AutoCAD 2000',
  AC1018: 'AutoCAD 2004',
  AC1021: 'AutoCAD 2007',
  AC1024: 'AutoCAD 2010',
  AC1027: 'AutoCAD 2013',
  AC1032: 'AutoCAD 2018',
}

export function releaseOf(version: string): string {
  return RELEASES[version] ?? (version.startsWith('AC') ? `AutoCAD (${version})` : version)
}
