/**
 * BOQ engine speed against LibreDWG's bare read, over the shared DWG fixtures (issue 3):
 * per file its size, the engine's median time to the BOQ (worker ready beforehand, not timed) and
 * the median bare dwg_read_file time (a fresh instance created beforehand, not timed).
 * Targets: Σ engine medians ≤ 2.0 × Σ bare medians; peak memory per parse < 512 MB on the largest
 * fixture; throughput printed.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createBoqEngine } from '../server/boq/engine.ts'
import { createReader } from '../server/boq/read/libredwg.ts'

const FIXTURES = resolve(import.meta.dirname, '../../shared/fixtures/dwg')
const RUNS = 5

if (!existsSync(FIXTURES)) {
  console.log(`engine bench: no fixtures at ${FIXTURES}; skipped`)
  process.exit(0)
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

async function bareRead(bytes: Uint8Array): Promise<number> {
  const lib = await createReader()
  lib.FS.writeFile('/bench.dwg', bytes)
  const start = performance.now()
  const result = lib.dwg_read_file('/bench.dwg')
  const ms = performance.now() - start
  try {
    lib.dwg_free(result.data)
  } catch {
    // freeing is not measured
  }
  return ms
}

const files = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.dwg'))
  .sort()
const engine = createBoqEngine({ workers: 1 })

// Warm-up: the first read in a process compiles and tiers up the WebAssembly (both paths).
const warm = readFileSync(join(FIXTURES, 'example_2018.dwg'))
await bareRead(warm)
await engine.ready()
await engine.extract({ bytes: warm, fileName: 'warm-up.dwg' })

type Row = { file: string; kb: number; engine: number; bare: number }
const rows: Row[] = []
for (const file of files) {
  const bytes = new Uint8Array(readFileSync(join(FIXTURES, file)))
  const engineTimes: number[] = []
  const bareTimes: number[] = []
  for (let i = 0; i < RUNS; i++) {
    await engine.ready()
    const start = performance.now()
    await engine.extract({ bytes, fileName: file })
    engineTimes.push(performance.now() - start)
    bareTimes.push(await bareRead(bytes))
  }
  rows.push({ file, kb: bytes.length / 1024, engine: median(engineTimes), bare: median(bareTimes) })
}

// Peak memory while the largest fixture is read: process RSS above the idle baseline
// (an upper bound for the parsing worker: it includes the next worker warming up beside it).
const largest = [...rows].sort((a, b) => b.kb - a.kb)[0]
await engine.ready()
await new Promise((r) => setTimeout(r, 200))
const baseline = process.memoryUsage().rss
let peak = baseline
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss)
}, 2)
await engine.extract({
  bytes: new Uint8Array(readFileSync(join(FIXTURES, largest.file))),
  fileName: largest.file,
})
clearInterval(sampler)
peak = Math.max(peak, process.memoryUsage().rss)
await engine.close()

const pad = (s: string, n: number) => s.padEnd(n)
const num = (v: number, n: number, d = 1) => v.toFixed(d).padStart(n)
console.log('\nBOQ engine vs bare LibreDWG read (medians of', RUNS, 'runs, ms)')
console.log(
  `${pad('file', 24)}${'KB'.padStart(8)}${'engine'.padStart(10)}${'bare read'.padStart(11)}${'ratio'.padStart(8)}`,
)
for (const r of rows) {
  console.log(
    `${pad(r.file, 24)}${num(r.kb, 8)}${num(r.engine, 10)}${num(r.bare, 11)}${num(r.engine / r.bare, 8, 2)}`,
  )
}
const sumEngine = rows.reduce((s, r) => s + r.engine, 0)
const sumBare = rows.reduce((s, r) => s + r.bare, 0)
const totalMb = rows.reduce((s, r) => s + r.kb, 0) / 1024
const ratio = sumEngine / sumBare
const peakMb = (peak - baseline) / 1024 / 1024
console.log(
  `${pad('sum', 24)}${num(totalMb * 1024, 8)}${num(sumEngine, 10)}${num(sumBare, 11)}${num(ratio, 8, 2)}`,
)
console.log(
  `engine time / bare read: ${ratio.toFixed(2)}x (target ≤ 2.00x) ${ratio <= 2 ? 'OK' : 'MISSED'}`,
)
console.log(
  `peak memory while reading ${largest.file} (${largest.kb.toFixed(0)} KB, the largest fixture): ${peakMb.toFixed(0)} MB above idle (target < 512 MB) ${peakMb < 512 ? 'OK' : 'MISSED'}`,
)
console.log(
  `throughput: ${(totalMb / (sumEngine / 1000)).toFixed(2)} MB/s through the engine, ${(totalMb / (sumBare / 1000)).toFixed(2)} MB/s bare read`,
)
