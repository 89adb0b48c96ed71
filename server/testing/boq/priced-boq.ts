import type { TakeoffRule } from '#contract/takeoff-rules.ts'
import { floorPlanBoq } from '#contract/testing/boq.ts'
import type { Boq } from '../../boq/model/schema.ts'
import { compileRuleSet, priceBill } from '../../boq/price/price.ts'

/**
 * Rules for floorPlanBoq()'s bill: doors, windows, walls and the slab priced, partitions ignored;
 * chairs left.
 */
export const FACTORY_RULES: TakeoffRule[] = [
  { match: 'count', block: 'DOOR', code: '23.10', description: 'Doors', unit: 'nr', rate: 150 },
  { match: 'count', block: 'WINDOW', code: '23.20', description: 'Windows', rate: 300 },
  { match: 'length', layer: 'Walls', code: '22.10', description: 'Walls', unit: 'm', rate: 40 },
  { match: 'length', layer: 'Partitions', ignore: true },
  {
    match: 'area',
    layer: 'Slabs',
    code: '22.20',
    description: 'Slab',
    quantity: 'area',
    rate: 12.5,
  },
]

/** The factory's bill, priced by FACTORY_RULES. */
export function pricedBoq(): Boq {
  const boq = floorPlanBoq()
  return { ...boq, priced: priceBill(boq, compileRuleSet(FACTORY_RULES)) }
}

/** FACTORY_RULES changed: doors at another rate, windows no longer priced, chairs now priced. */
export const REPRICED_RULES: TakeoffRule[] = [
  { ...FACTORY_RULES[0], rate: 175 } as TakeoffRule,
  ...FACTORY_RULES.slice(2),
  { match: 'count', block: 'CHAIR', code: '24.10', description: 'Chairs', unit: 'nr', rate: 80 },
]

/** The factory's bill, priced by REPRICED_RULES. */
export function repricedBoq(): Boq {
  const boq = floorPlanBoq()
  return { ...boq, priced: priceBill(boq, compileRuleSet(REPRICED_RULES)) }
}
