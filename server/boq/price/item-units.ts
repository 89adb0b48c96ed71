import type { RuleMatch } from '#contract/takeoff-rules.ts'
import { metresPerBillUnit } from '../measure/units.ts'
import type { BillUnits } from '../model/schema.ts'

/**
 * The units an item may be given without a formula: lengths and areas the bill's figures convert
 * to. Anything else is a label (nr, item, set…), which only a count or a formula may have.
 */

const LENGTHS: Record<string, number> = {
  mm: 0.001,
  cm: 0.01,
  dm: 0.1,
  m: 1,
  km: 1000,
  in: 0.0254,
  ft: 0.3048,
  yd: 0.9144,
  mi: 1609.344,
}

/** Other ways surveyors write them: linear metres and feet, square units. */
const ALIASES: Record<string, string> = {
  lm: 'm',
  'lin m': 'm',
  lf: 'ft',
  'lin ft': 'ft',
  sqm: 'm²',
  'sq m': 'm²',
  sqft: 'ft²',
  'sq ft': 'ft²',
  sf: 'ft²',
  sqyd: 'yd²',
  'sq yd': 'yd²',
  sy: 'yd²',
}

const SPECIAL_AREAS: Record<string, number> = { ha: 10_000, acre: 4046.8564224 }

export type ItemUnit =
  | { dimension: 'length'; symbol: string; metres: number }
  | { dimension: 'area'; symbol: string; squareMetres: number }
  | { dimension: 'other'; symbol: string }

/** What a unit cell says, its symbol written the usual way (`m2` → `m²`, `LM` → `m`). */
export function parseItemUnit(written: string): ItemUnit {
  const trimmed = written.trim()
  let key = trimmed
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/\^?2$|²$/, '²')
  if (Object.hasOwn(ALIASES, key)) key = ALIASES[key]
  if (Object.hasOwn(SPECIAL_AREAS, key))
    return { dimension: 'area', symbol: key, squareMetres: SPECIAL_AREAS[key] }
  if (key.endsWith('²')) {
    const base = key.slice(0, -1)
    if (Object.hasOwn(LENGTHS, base))
      return { dimension: 'area', symbol: key, squareMetres: LENGTHS[base] ** 2 }
  }
  if (Object.hasOwn(LENGTHS, key)) return { dimension: 'length', symbol: key, metres: LENGTHS[key] }
  return { dimension: 'other', symbol: trimmed }
}

/** The unit of the measured quantity itself: what an empty unit cell means. */
export function billUnitOf(match: RuleMatch, units: BillUnits): string {
  return match === 'count' ? 'nr' : match === 'length' ? units.length : units.area
}

/**
 * The factor from the bill's figure to the item's unit, or why there is none. The bill's own
 * unit needs none, so a drawing that states no units still gives items in its own units.
 */
export function conversionFactor(
  match: RuleMatch,
  unit: string,
  units: BillUnits,
): { factor: number } | { error: string } {
  const own = billUnitOf(match, units)
  const parsed = parseItemUnit(unit)
  if (match === 'count' || parsed.symbol === parseItemUnit(own).symbol) return { factor: 1 }
  const metres = metresPerBillUnit(units)
  if (metres === null)
    return {
      error: `the drawing states no units, so its ${own} cannot be given in ${parsed.symbol}`,
    }
  if (match === 'length' && parsed.dimension === 'length') return { factor: metres / parsed.metres }
  if ((match === 'area' || match === 'zone') && parsed.dimension === 'area')
    return { factor: (metres * metres) / parsed.squareMetres }
  return { error: `${own} cannot be given in ${parsed.symbol}` }
}
