import { LRUCache } from 'lru-cache'
import type { DrawingPart } from '../boq/write/part.ts'
import { billSums } from './bill-sums.ts'
import { type PartKey, partKeyText } from './types.ts'

/**
 * What a drawing's kept bill gave a project bill with some versions of the project's tables: its
 * part (with why it is measured only, when the rules no longer check), or why it cannot join.
 */
export type KeptPricing = { part: DrawingPart; rulesProblem?: string } | { failed: string }

/**
 * What the parts kept may weigh, about: a drawing's part is some kilobytes, a hundred or so for a
 * drawing of thousands of lines.
 */
const MAX_KEPT_BYTES = 200 * 1024 * 1024
const sizeOf = (pricing: KeptPricing) =>
  'part' in pricing
    ? 1024 + 100 * pricing.part.lines.length + 200 * (pricing.part.items?.length ?? 0)
    : 1024
/** Bills whose sums are kept at most (each up to megabytes: thousands of lines). */
const MAX_SUMMED = 20

/**
 * Each drawing's part kept in this process, by its job and the versions of the tables that
 * priced it: a job's measured bill never changes, nor does a saved version, so a bill assembled
 * again reads only the drawings whose job or tables are new (a new version, new rules). Other
 * processes, and this one after a restart, find the drawings' bills of record priced already.
 */
export function keptPricings() {
  const kept = new LRUCache<string, KeptPricing>({
    maxSize: MAX_KEPT_BYTES,
    sizeCalculation: sizeOf,
  })
  const sums = new LRUCache<string, ReturnType<typeof billSums>>({ max: MAX_SUMMED })
  return {
    get: (key: PartKey) => kept.get(partKeyText(key)),
    keep(key: PartKey, pricing: KeptPricing): void {
      kept.set(partKeyText(key), pricing)
    },
    /** A bill's sums as last summed here (a bill asked again sums only what changed). */
    sumsOf(billId: string): ReturnType<typeof billSums> {
      let kept = sums.get(billId)
      if (!kept) {
        kept = billSums()
        sums.set(billId, kept)
      }
      return kept
    },
  }
}

export type KeptPricings = ReturnType<typeof keptPricings>
