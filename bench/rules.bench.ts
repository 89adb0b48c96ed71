/**
 * Takeoff rules, engine only (no HTTP, no job store): the priced bill from a kept result.
 * 1. 1,000 rules applied to the measurements of 2018_Dynblocks: rules checked and compiled, then
 *    applied to the result's pieces. Most rules match nothing, so every piece is tried against
 *    nearly every group of its match before the last few take it, as a big rule set does.
 *    Target: ≤ 50 ms.
 * 2. A kept result of 10,000 measured lines (4,000 counts with their references, 3,000 linework
 *    and 3,000 area lines) re-priced with 200 rules, from its JSON text to the priced bill's:
 *    JSON parsed, rules compiled, pieces derived, rules applied, the answer written as JSON.
 *    Target: ≤ 200 ms.
 * 3. The same kept result, kept by the embedded job store as a finished job keeps it, with the
 *    200 rules saved for its project, re-priced by POST /api/boq/jobs/{id}/reprice over real HTTP
 *    on loopback (the price routes alone, the user by header): store read, pricing, the answer.
 *    Target: ≤ 200 ms.
 */
import type { TakeoffRule } from '#contract/takeoff-rules.ts'
import type { Boq } from '../server/boq/model/schema.ts'
import { compileRuleSet, priceBill } from '../server/boq/price/price.ts'
import { createReader } from '../server/boq/read/libredwg.ts'
import { extractBoq } from '../server/boq/run/extract.ts'
import { fixture } from '../server/testing/boq/fixtures.ts'
import { areaLine, lengthLine, measured, placed } from '../server/testing/boq/price/measured.ts'
import { repriceOverHttp } from './support/reprice-server.ts'
import { describeMs, median, versusTarget } from './support/stats.ts'

const RUNS = 15
const WARM_UP = 3

type Times = { wall: number[]; cpu: number[] }

/**
 * Wall-clock and CPU times of each run. On a machine others share, a run that waits for a core
 * takes longer on the clock than it works: the CPU time (this process's threads, the garbage
 * collector's included) says what the work costs.
 */
function timed(run: () => void): Times {
  const times: Times = { wall: [], cpu: [] }
  for (let i = 0; i < WARM_UP + RUNS; i++) {
    const cpu = process.cpuUsage()
    const started = performance.now()
    run()
    const ms = performance.now() - started
    const used = process.cpuUsage(cpu)
    if (i < WARM_UP) continue
    times.wall.push(ms)
    times.cpu.push((used.user + used.system) / 1000)
  }
  return times
}

function report(label: string, times: Times, target?: number): void {
  console.log(`  ${label}: ${describeMs(times.wall)}; CPU ${describeMs(times.cpu)}`)
  if (target === undefined) return
  console.log(`  median ${versusTarget(median(times.wall), target, ' ms')}`)
  console.log(`  CPU median ${versusTarget(median(times.cpu), target, ' ms')}`)
}

/** `count` rules that match nothing in the drawing, then the ones that do. */
function ruleSet(count: number, matching: TakeoffRule[]): TakeoffRule[] {
  const rules: TakeoffRule[] = []
  for (let i = 0; rules.length < count - matching.length; i++) {
    const n = `${i}`.padStart(4, '0')
    switch (i % 4) {
      case 0:
        rules.push({
          match: 'count',
          block: `Fitting ${n}*`,
          attribute: `TYPE=T${n}?`,
          code: `50.${n}`,
          quantity: 'count * 2',
          rate: i,
        })
        break
      case 1:
        rules.push({
          match: 'count',
          layer: `L-${n}`,
          visibility: `State ${n}`,
          code: `60.${n}`,
          rate: i,
        })
        break
      case 2:
        rules.push({
          match: 'length',
          layer: `Pipe-${n}*`,
          kind: 'line, arc, polyline',
          code: `70.${n}`,
          unit: 'mm',
          rate: i / 100,
        })
        break
      default:
        rules.push({
          match: 'area',
          layer: `Floor ?${n}`,
          kind: 'hatch',
          code: `80.${n}`,
          quantity: 'area * 0.15',
          unit: 'm³',
          rate: i,
        })
    }
  }
  return [...rules, ...matching]
}

const MATCHING: TakeoffRule[] = [
  { match: 'count', block: 'Trees*', visibility: 'Palm*', code: '90.10', rate: 400 },
  { match: 'count', block: 'Door*', code: '30.10', rate: 650 },
  { match: 'count', layer: 'CAR', ignore: true },
  { match: 'count', block: '*', code: '99.1', description: 'Other blocks', rate: 10 },
  { match: 'length', layer: 'Dim', ignore: true },
  {
    match: 'length',
    layer: 'WALL*',
    code: '20.10',
    unit: 'ft²',
    quantity: 'length * 8 * 2',
    rate: 3,
  },
  { match: 'length', layer: 'WALL*', code: '20.20', unit: 'm', rate: 9 },
  { match: 'length', code: '99.2', description: 'Other linework', rate: 1 },
  { match: 'area', code: '40.10', unit: 'm²', rate: 20 },
]

// 1. 2018_Dynblocks, measured once (not timed).
const dyn = extractBoq(
  { bytes: fixture('2018_Dynblocks.dwg'), fileName: '2018_Dynblocks.dwg' },
  await createReader(),
)
const thousand = ruleSet(1000, MATCHING)
const compiledThousand = compileRuleSet(thousand)
const dynBill = priceBill(dyn, compiledThousand)
// The reader's garbage is collected while the code warms up, not in the first timed block.
timed(() => priceBill(dyn, compileRuleSet(thousand)))
const compileTimes = timed(() => compileRuleSet(thousand))
const applyTimes = timed(() => priceBill(dyn, compiledThousand))
const bothTimes = timed(() => priceBill(dyn, compileRuleSet(thousand)))
console.log(
  `1,000 rules on 2018_Dynblocks (${dyn.bill.length} measured lines, ${dyn.references.length} references; ${dynBill.items.length} items, ${dynBill.notClassified.length} not classified, ${dynBill.ignored.length} ignored):`,
)
report('rules checked and compiled', compileTimes)
report('applied to the measurements', applyTimes)
report('both', bothTimes, 50)

// 2. A kept result of 10,000 lines.
function bigResult(): Boq {
  const references = Array.from({ length: 4000 }, (_, i) =>
    placed({
      handle: `R${i.toString(16)}`,
      block: `Block ${i}`,
      layer: `Layer ${i % 40}`,
      attributes: { TYPE: `T${i % 7}`, WIDTH: `${(i % 9) / 10 + 0.6}` },
      visibility: i % 3 === 0 ? 'Open' : 'Closed',
    }),
  )
  const lines = []
  for (let i = 0; i < 3000; i++) {
    lines.push(
      lengthLine(`B${i + 1}`, `Walls ${i}`, [
        { kind: 'line', count: 3, quantity: 10 + i / 7, handles: [`L${i}a`, `L${i}b`, `L${i}c`] },
        { kind: 'arc', count: 1, quantity: 1 + i / 100, handles: [`L${i}d`] },
      ]),
    )
  }
  for (let i = 0; i < 3000; i++) {
    lines.push(
      areaLine(`C${i + 1}`, `Floor ${i}`, [
        { kind: 'hatch', count: 2, quantity: 20 + i / 3, handles: [`H${i}a`, `H${i}b`] },
      ]),
    )
  }
  return measured(references, lines)
}

const big = bigResult()
const kept = JSON.stringify(big)
const twoHundred = ruleSet(200, [
  {
    match: 'count',
    attribute: 'TYPE=T1',
    code: '30.1',
    quantity: 'WIDTH * 2 + 4',
    unit: 'm',
    rate: 12,
  },
  { match: 'count', visibility: 'Open', code: '30.2', rate: 300 },
  { match: 'count', layer: 'Layer 1?', ignore: true },
  {
    match: 'length',
    layer: 'Walls 1*',
    kind: 'line',
    code: '20.1',
    unit: 'm²',
    quantity: 'length * 2.4 * 2',
    rate: 18,
  },
  { match: 'length', layer: 'Walls 1*', kind: 'line', code: '20.2', rate: 9 },
  { match: 'length', layer: 'Walls *', code: '20.3', unit: 'mm', rate: 0.001 },
  { match: 'area', layer: 'Floor 2*', code: '40.1', rate: 35 },
])
let answer = ''
const repriceTimes = timed(() => {
  const boq = JSON.parse(kept) as Boq
  answer = JSON.stringify(priceBill(boq, compileRuleSet(twoHundred)))
})
const priced = JSON.parse(answer) as ReturnType<typeof priceBill>
console.log(
  `Re-pricing a kept result of ${big.bill.length.toLocaleString('en')} measured lines (${(kept.length / 1e6).toFixed(1)} MB of JSON) with 200 rules (${priced.items.length} items, ${priced.notClassified.length} not classified, ${priced.ignored.length} ignored; ${(answer.length / 1e6).toFixed(1)} MB answer), engine only:`,
)
report('JSON in, priced JSON out', repriceTimes, 200)

// 3. The same result re-priced through the API.
const overHttp = await repriceOverHttp(kept, twoHundred, RUNS)
console.log(
  `Re-pricing the same kept result through POST /api/boq/jobs/{id}/reprice over loopback (${(overHttp.answerBytes / 1e6).toFixed(1)} MB answer):`,
)
console.log(`  answered: ${describeMs(overHttp.times)}`)
console.log(`  median ${versusTarget(median(overHttp.times), 200, ' ms')}`)
