import { expect } from 'vitest'
import type { Boq } from '../model/schema.ts'

/** Every line's and row's parts by zone, unallocated included, add up to its quantity. */
export function expectLinesAddUp(boq: Boq): void {
  for (const line of boq.bill) {
    const parts = line.byZone ?? []
    expect(parts.length, `${line.ref} has parts by zone`).toBeGreaterThan(0)
    const sum = parts.reduce((total, part) => total + part.quantity, 0)
    expect(
      Math.abs(sum - line.quantity),
      `${line.ref}: ${sum} against ${line.quantity}`,
    ).toBeLessThanOrEqual(1e-9 * Math.max(1, line.quantity))
    for (const part of parts)
      expect(part.quantity, `${line.ref} ${part.zone}`).toBeGreaterThanOrEqual(-1e-9)
    for (const row of line.breakdown) {
      const rowSum = (row.byZone ?? []).reduce((total, part) => total + part.quantity, 0)
      expect(Math.abs(rowSum - row.quantity)).toBeLessThanOrEqual(1e-9 * Math.max(1, row.quantity))
    }
  }
}
