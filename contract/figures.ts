/**
 * The largest figure, either way, a rate, an item's quantity, an amount, a subtotal or the total
 * may be: a million billion. Past it a sum no longer holds its cents (doubles are exact to 2⁵³,
 * about 9 × 10¹⁵), so a rate past it is refused and a quantity or an amount past it is flagged
 * on its item and left out of the sums. In a module of its own: the rules and the bill settings
 * both bound their figures by it.
 */
export const MAX_FIGURE = 1e15

/** The decimals an amount is billed to when no currency says otherwise (cents). */
export const DEFAULT_AMOUNT_DECIMALS = 2

/** The decimals a quantity is billed to when the bill settings do not name its unit. */
export const DEFAULT_QUANTITY_DECIMALS = 2

/** Units of whole things: billed without decimals unless the bill settings say otherwise. */
const WHOLE_UNITS = new Set(['nr', 'no', 'no.', 'ea', 'each', 'pcs'])

/**
 * The decimals an item's quantity is billed to: the settings' figure for its unit (as written,
 * else with case aside), else 0 for a unit of whole things (`nr`), else 2.
 */
export function unitDecimals(unit: string, decimals: Record<string, number> = {}): number {
  const stated = decimals[unit] ?? caseless(decimals, unit)
  if (stated !== undefined) return stated
  return WHOLE_UNITS.has(unit.toLowerCase()) ? 0 : DEFAULT_QUANTITY_DECIMALS
}

function caseless(decimals: Record<string, number>, unit: string): number | undefined {
  const folded = unit.toLowerCase()
  for (const [key, value] of Object.entries(decimals))
    if (key.toLowerCase() === folded) return value
  return undefined
}
