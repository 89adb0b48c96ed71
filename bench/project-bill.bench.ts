/**
 * The project bill, over real HTTP on loopback (the project bills' routes alone, the user by
 * header), on an embedded job store holding 50 finished jobs, each keeping a bill of 2,000
 * measured lines priced at extraction with the 4 rules saved for the project, and its part of a
 * project bill, as the runner keeps a job:
 * 1. GET …/bills/{id} the first time: each drawing's part read as its job kept it, summed.
 *    Target: ≤ 300 ms. Then again, from what the process kept. Target: ≤ 300 ms.
 * 2. The 50th drawing gets a new version whose job has just ended: the bill's answer then (only
 *    that drawing's part read, the sums kept changed by its share). Target: ≤ 100 ms.
 * 3. Meanwhile: while the bills are assembled the first time, another person's request (the
 *    list of the project's bills) answered every 20 ms. Target: the slowest ≤ 200 ms.
 * 4. Another process's first answer (nothing kept in its memory). Target: ≤ 300 ms. Then the
 *    rules change: the first answer prices every drawing (figures only, no target), and another
 *    process's first answer after it (the parts priced then, read from the bill store).
 *    Target: ≤ 300 ms.
 * 5. The same drawings' jobs as an older BOQ kept them, with no part: the first answer reads
 *    every bill of record whole (figures only, no target: once per job, its part kept then).
 */
import type { TakeoffRule } from '#contract/takeoff-rules.ts'
import { bigBill } from './support/big-bill.ts'
import { projectBillServer } from './support/project-bill-server.ts'
import { describeMs, median, versusTarget } from './support/stats.ts'

const DRAWINGS = 50
const LINES = 2000
const RUNS = 9

const RULES: TakeoffRule[] = [
  { match: 'count', block: 'Block 1*', code: '10.1', description: 'Fittings', rate: 12.5 },
  { match: 'count', code: '10.2', description: 'Other blocks', rate: 4 },
  { match: 'length', code: '20.1', description: 'Pipe', unit: 'm', rate: 2.2 },
  { match: 'area', code: '30.1', description: 'Floor', rate: 3 },
]

const setup = performance.now()
const bench = await projectBillServer({
  drawings: Array.from({ length: DRAWINGS }, (_, i) => bigBill(LINES, i % 3)),
  rules: RULES,
})
console.log(
  `${DRAWINGS} drawings × ${LINES.toLocaleString('en')} measured lines kept (set up in ${((performance.now() - setup) / 1000).toFixed(1)} s)`,
)

async function timedGet(url: string, user = 'ann'): Promise<{ ms: number; body: string }> {
  const started = performance.now()
  const answer = await fetch(url, { headers: { 'x-user': user } })
  const body = await answer.text()
  const ms = performance.now() - started
  if (!answer.ok) throw new Error(`GET ${url} answered ${answer.status}: ${body}`)
  return { ms, body }
}

function said(label: string, first: { ms: number; body: string }): void {
  const figures = JSON.parse(first.body) as { priced: { items: unknown[]; total: number } }
  console.log(
    `${label}: ${first.ms.toFixed(1)} ms (${figures.priced.items.length} items, total ${figures.priced.total}, ${(first.body.length / 1e6).toFixed(2)} MB answer)`,
  )
}

try {
  // 1 and 3: the first assemblies, another person asking meanwhile.
  const others: number[] = []
  let assembling = true
  const meanwhile = (async () => {
    while (assembling) {
      others.push((await timedGet(bench.listUrl, 'bob')).ms)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  })()
  const first = await timedGet(bench.billUrl)
  const older = await timedGet(bench.olderBillUrl)
  assembling = false
  await meanwhile
  said("Assembled the first time (each drawing's part as its job kept it)", first)
  console.log(`  ${versusTarget(first.ms, 300, ' ms')}`)
  const again: number[] = []
  for (let run = 0; run < RUNS; run++) again.push((await timedGet(bench.billUrl)).ms)
  console.log(`Assembled again, from what was kept: ${describeMs(again)}`)
  console.log(`  median ${versusTarget(median(again), 300, ' ms')}`)
  console.log(`Another person's requests meanwhile: ${describeMs(others)}`)
  console.log(`  slowest ${versusTarget(Math.max(...others), 200, ' ms')}`)
  said('Jobs an older BOQ kept, no parts: every bill of record read (no target)', older)

  // 2. The 50th drawing's new version, its job just ended.
  const after: number[] = []
  for (let run = 0; run < RUNS; run++) {
    await bench.newVersion(DRAWINGS - 1, bigBill(LINES, run + 5))
    after.push((await timedGet(bench.billUrl)).ms)
  }
  console.log(`The bill once a drawing's new version is billed: ${describeMs(after)}`)
  console.log(`  median ${versusTarget(median(after), 100, ' ms')}`)

  // 4. Another process; new rules: every drawing priced once, its part kept.
  await bench.restart()
  const elsewhere = await timedGet(bench.billUrl)
  said('In another process, its first answer (the parts kept in the bill store)', elsewhere)
  console.log(`  ${versusTarget(elsewhere.ms, 300, ' ms')}`)
  await bench.saveRules(RULES.map((rule) => ('rate' in rule ? { ...rule, rate: 2 } : rule)))
  said(
    'After the rules changed: every drawing priced, its part kept (no target)',
    await timedGet(bench.billUrl),
  )
  await bench.restart()
  const repriced = await timedGet(bench.billUrl)
  said('Then in another process, its first answer', repriced)
  console.log(`  ${versusTarget(repriced.ms, 300, ' ms')}`)
} finally {
  await bench.close()
}
