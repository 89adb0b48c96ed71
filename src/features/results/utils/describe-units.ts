import type { BillUnits } from '#contract/boq.ts'

const SYSTEM: Record<BillUnits['system'], string> = {
  metric: 'metric',
  imperial: 'imperial',
  drawing: "the drawing's own units",
}

/** The bill's units and where they come from: `m and m² (metric), from a drawing in millimetres`. */
export function describeBillUnits(units: BillUnits): string {
  const from =
    units.drawing.code !== 0
      ? `a drawing in ${units.drawing.name}`
      : units.stated
        ? `a drawing without units, read as ${units.stated}`
        : 'a drawing without units'
  return `${units.length} and ${units.area} (${SYSTEM[units.system]}), from ${from}`
}
