/**
 * BOQ engine speed against LibreDWG's bare read, over the sample DWG drawings: per file its
 * size, the engine's median time from extract() to the BOQ (its worker warm, its reader put back
 * to a fresh state beforehand, not timed) and the median bare dwg_read_file time (a fresh instance
 * created beforehand, not timed). Nothing of the engine runs during a bare read.
 * Then a batch: the same files extracted back to back without waiting between them, as the
 * command line and a busy server send them (one worker, as the command line has).
 * Targets: Σ engine medians ≤ 1.5 × Σ bare medians, ≤ 1.2× on every fixture above 1 MB, the
 * batch ≤ 1.5×; peak memory of one worker < 512 MB on the largest fixture; throughput printed.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { LibreDwgEx } from '@mlightcad/libredwg-web'
import { createReader } from '../server/boq/read/libredwg.ts'
import { createBoqEngine } from '../server/boq/run/engine.ts'
import { FIXTURES } from '../server/testing/boq/fixtures.ts'

const RUNS = 7

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

async function bareRead(bytes: Uint8Array): Promise<number> {
  let lib: LibreDwgEx | null = await createReader()
  lib.FS.writeFile('/bench.dwg', bytes)
  const start = performance.now()
  lib.dwg_read_file('/bench.dwg')
  const ms = performance.now() - start
  lib = null // dropped: each bare read has a new instance
  return ms
}

const files = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.dwg'))
  .sort()
const sizes = new Map(files.map((f) => [f, statSync(join(FIXTURES, f)).size]))
const largest = [...files].sort((a, b) => (sizes.get(b) ?? 0) - (sizes.get(a) ?? 0))[0]

// Peak memory of one worker reading the largest fixture: process RSS with no worker, against its
// peak while a fresh engine (one worker: isolate, compiled WebAssembly, instance) reads the file.
const rssNow = () => process.memoryUsage().rss
await new Promise((r) => setTimeout(r, 100))
const baseline = rssNow()
let peak = baseline
const sampler = setInterval(() => {
  peak = Math.max(peak, rssNow())
}, 2)
const memoryEngine = createBoqEngine({ workers: 1 })
await memoryEngine.ready()
const largestBytes = new Uint8Array(readFileSync(join(FIXTURES, largest)))
await memoryEngine.extract({ bytes: largestBytes, fileName: largest })
clearInterval(sampler)
peak = Math.max(peak, rssNow())
await memoryEngine.close()
const peakMb = (peak - baseline) / 1024 / 1024

const engine = createBoqEngine({ workers: 1 })

// Warm-up: the first read in a process compiles and tiers up the WebAssembly (both paths), and
// the engine's worker compiles its JavaScript, as in a server that has read a file before.
const warm = readFileSync(join(FIXTURES, 'example_2018.dwg'))
await bareRead(warm)
await engine.ready()
await engine.extract({ bytes: warm, fileName: 'warm-up.dwg' })

type Row = { file: string; kb: number; engine: number[]; bare: number[] }
const rows: Row[] = []
for (const file of files) {
  const bytes = new Uint8Array(readFileSync(join(FIXTURES, file)))
  const row: Row = { file, kb: bytes.length / 1024, engine: [], bare: [] }
  const timeEngine = async () => {
    await engine.ready() // the reader is put back between files, not timed
    const start = performance.now()
    await engine.extract({ bytes, fileName: file })
    row.engine.push(performance.now() - start)
  }
  const timeBare = async () => {
    await engine.ready() // nothing of the engine runs beside the bare read
    row.bare.push(await bareRead(bytes))
  }
  for (let i = 0; i < RUNS; i++) {
    // Alternate which goes first, so neither always follows the other's garbage.
    if (i % 2) {
      await timeBare()
      await timeEngine()
    } else {
      await timeEngine()
      await timeBare()
    }
  }
  rows.push(row)
}
const stats = engine.stats()
await engine.close()

// The batch: every file once per round, each sent as soon as the previous one is answered.
const batchEngine = createBoqEngine({ workers: 1 })
await batchEngine.ready()
await batchEngine.extract({ bytes: warm, fileName: 'warm-up.dwg' })
await batchEngine.extract({ bytes: warm, fileName: 'warm-up.dwg' })
const fileBytes = files.map((f) => new Uint8Array(readFileSync(join(FIXTURES, f))))
const batchRounds: number[] = []
for (let i = 0; i < RUNS; i++) {
  let total = 0
  for (const [n, bytes] of fileBytes.entries()) {
    const start = performance.now()
    await batchEngine.extract({ bytes, fileName: files[n] })
    total += performance.now() - start
  }
  batchRounds.push(total)
}
await batchEngine.close()

const pad = (s: string, n: number) => s.padEnd(n)
const num = (v: number, n: number, d = 1) => v.toFixed(d).padStart(n)
const sum = (values: number[]) => values.reduce((s, v) => s + v, 0)
console.log(`\nBOQ engine vs bare LibreDWG read (medians of ${RUNS} runs, ms)`)
console.log(
  `${pad('file', 24)}${'KB'.padStart(8)}${'engine'.padStart(10)}${'bare read'.padStart(11)}${'ratio'.padStart(8)}`,
)
for (const r of rows) {
  const e = median(r.engine)
  const b = median(r.bare)
  console.log(`${pad(r.file, 24)}${num(r.kb, 8)}${num(e, 10)}${num(b, 11)}${num(e / b, 8, 2)}`)
}
const sumEngine = sum(rows.map((r) => median(r.engine)))
const sumBare = sum(rows.map((r) => median(r.bare)))
const totalMb = sum(rows.map((r) => r.kb)) / 1024
const ratio = sumEngine / sumBare
console.log(
  `${pad('sum', 24)}${num(totalMb * 1024, 8)}${num(sumEngine, 10)}${num(sumBare, 11)}${num(ratio, 8, 2)}`,
)
const spread = (pick: (r: Row) => number[]) =>
  `${sum(rows.map((r) => Math.min(...pick(r)))).toFixed(0)}–${sum(rows.map((r) => Math.max(...pick(r)))).toFixed(0)} ms`
console.log(
  `spread (sum of per-file min–max): engine ${spread((r) => r.engine)}, bare read ${spread((r) => r.bare)}`,
)
console.log(
  `engine time / bare read: ${ratio.toFixed(2)}x (target ≤ 1.50x) ${ratio <= 1.5 ? 'OK' : 'MISSED'}`,
)
for (const r of rows.filter((row) => row.kb > 1024)) {
  const fileRatio = median(r.engine) / median(r.bare)
  console.log(
    `${r.file} (${(r.kb / 1024).toFixed(1)} MB): ${fileRatio.toFixed(2)}x (target ≤ 1.20x above 1 MB) ${fileRatio <= 1.2 ? 'OK' : 'MISSED'}`,
  )
}
const batchSum = median(batchRounds)
const batchRatio = batchSum / sumBare
console.log(
  `batch, back to back (1 worker, median of ${RUNS} rounds): ${batchSum.toFixed(1)} ms, ${batchRatio.toFixed(2)}x the bare reads (target ≤ 1.50x) ${batchRatio <= 1.5 ? 'OK' : 'MISSED'}; rounds ${Math.min(...batchRounds).toFixed(0)}–${Math.max(...batchRounds).toFixed(0)} ms`,
)
console.log(
  `peak memory of one worker reading ${largest} (${((sizes.get(largest) ?? 0) / 1024).toFixed(0)} KB, the largest fixture): ${peakMb.toFixed(0)} MB above the process without workers (target < 512 MB) ${peakMb < 512 ? 'OK' : 'MISSED'}`,
)
console.log(
  `throughput: ${(totalMb / (sumEngine / 1000)).toFixed(2)} MB/s through the engine, ${(totalMb / (sumBare / 1000)).toFixed(2)} MB/s bare read`,
)
console.log(
  `workers: ${stats.workersStarted} started, ${stats.workersReplaced} replaced over ${stats.files} files (each file from a fresh reader state)`,
)
