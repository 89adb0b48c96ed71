import type { BillSettings } from '../bill-settings.ts'
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

/**
 * A project's bill settings as a surveyor sets them: euros, the header, counts whole, and every
 * kind of adjustment (preliminaries and contingency on the running total, a provisional sum, an
 * item added and one omitted, VAT), unless told otherwise.
 */
export function billSettings(overrides: Partial<BillSettings> = {}): BillSettings {
  return {
    currency: 'EUR',
    title: 'Ground floor fit-out',
    client: 'ACME Properties Ltd',
    reference: 'Q-2025-014 rev B',
    decimals: { nr: 0, m: 2, 'm²': 2 },
    adjustments: [
      { kind: 'percent', name: 'Preliminaries', percent: 10 },
      { kind: 'percent', name: 'Contingency', percent: 5 },
      { kind: 'sum', name: 'Provisional sum: signage', amount: 1500 },
      { kind: 'item', name: 'Extra door closers', quantity: 3, unit: 'nr', rate: 85.5 },
      {
        kind: 'item',
        name: 'Omit skirting to store',
        quantity: 4.25,
        unit: 'm',
        rate: 12.4,
        omit: true,
      },
      { kind: 'tax', name: 'VAT', percent: 20 },
    ],
    ...overrides,
  }
}
