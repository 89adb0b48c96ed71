import { expect } from 'vitest'
import type { Boq } from '../../boq/model/schema.ts'
import type { DxfWriter } from './dxf-writer.ts'

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

type Pairs = (string | number)[]

/**
 * A DXF of many model-space entities, too many for one DxfWriter.toString() (its pairs go
 * through one spread): `fill` is called batch by batch, each batch's pairs written as text.
 */
export function manyEntitiesDxf(
  w: DxfWriter,
  batches: number,
  fill: (batch: number, to: Pairs, owner: string) => void,
): string {
  const section = '  0\nSECTION\n  2\nENTITIES\n'
  const text = w.toString()
  const at = text.indexOf(section) + section.length
  const parts = [text.slice(0, at)]
  for (let batch = 0; batch < batches; batch++) {
    const to: Pairs = []
    fill(batch, to, w.modelSpace)
    const lines: string[] = []
    for (let i = 0; i < to.length; i += 2)
      lines.push(String(to[i]).padStart(3, ' '), String(to[i + 1]))
    parts.push(`${lines.join('\n')}\n`)
  }
  parts.push(text.slice(at))
  return parts.join('')
}
