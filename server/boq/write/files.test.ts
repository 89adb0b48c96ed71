import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { floorPlanBoq } from '#contract/testing/boq.ts'
import { pricedBoq } from '../../testing/boq/priced-boq.ts'
import { BoqSchema } from '../model/schema.ts'
import { renderFiles } from './files.ts'

const json = (bytes: Uint8Array | undefined) => JSON.parse(new TextDecoder().decode(bytes))

describe('renderFiles', () => {
  it('gives the priced bill in the JSON beside the measured bill, as the schema reads it', async () => {
    const { priced, ...measured } = pricedBoq()
    const { files } = await renderFiles(measured, ['json'], undefined, priced)
    const kept = v.parse(BoqSchema, json(files.json))
    expect(kept.bill).toEqual(measured.bill)
    expect(kept.priced?.items.map((i) => [i.ref, i.code, i.amount])).toEqual([
      ['1', '22.10', 1004.8],
      ['2', '22.20', 5000],
      ['3', '23.10', 1650],
      ['4', '23.20', 600],
    ])
    expect(kept.priced?.total).toBe(priced?.total)
    expect(kept.priced?.notClassified.map((n) => n.line)).toEqual(['A3'])
    expect(kept.priced?.ignored.map((n) => [n.rule, n.line])).toEqual([[4, 'B2']])
    expect(kept.priced?.rules).toHaveLength(5)
  })

  it('reads a result kept before per-entity figures and the priced bill existed', () => {
    const old = json(new TextEncoder().encode(JSON.stringify(floorPlanBoq())))
    for (const line of old.bill) for (const row of line.breakdown) delete row.quantities
    expect(v.safeParse(BoqSchema, old).success).toBe(true)
    expect('priced' in old).toBe(false)
  })
})
