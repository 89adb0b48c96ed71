import { unitDecimals } from '../figures.ts'
import type { PricedItem } from '../takeoff-rules.ts'

/*
 * Priced bills' pieces as the engine gives them (contract/takeoff-rules.ts), for the app's tests
 * and the server's. Each call gives a fresh object.
 */

/**
 * A priced item: 10 m of walls at 40 unless told otherwise; its measured quantity is its billed
 * one and its decimals its unit's, unless given.
 */
export function pricedItem(overrides: Partial<PricedItem> = {}): PricedItem {
  const quantity = overrides.quantity ?? 10
  const rate = overrides.rate === undefined ? 40 : overrides.rate
  const unit = overrides.unit ?? 'm'
  return {
    ref: '1',
    section: '22',
    code: '22.10',
    description: 'Walls',
    unit,
    quantity,
    measuredQuantity: quantity,
    decimals: unitDecimals(unit),
    rate,
    amount: rate === null ? null : quantity * rate,
    rules: [1],
    sources: [],
    flags: [],
    ...overrides,
  }
}
