import { expect } from 'vitest'
import type { Boq } from '../../../boq/model/schema.ts'
import type { Piece } from '../../../boq/price/piece.ts'

/** Every bill line's quantity is the sum of its pieces: nothing lost, nothing twice. */
export function expectWholeBill(boq: Boq, pieces: Piece[]): void {
  const sums = new Map<string, number>()
  for (const p of pieces) sums.set(p.line, (sums.get(p.line) ?? 0) + p.quantity)
  for (const line of boq.bill) expect(sums.get(line.ref) ?? 0).toBeCloseTo(line.quantity, 9)
  expect([...sums.keys()].every((ref) => boq.bill.some((line) => line.ref === ref))).toBe(true)
}
