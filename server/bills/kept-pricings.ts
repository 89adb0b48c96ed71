import { LRUCache } from 'lru-cache'
import type { KeptUnits } from './kept-units.ts'
import type { DrawingBill } from './project-figures.ts'

/** What a drawing's kept bill gave once priced with some versions of the project's tables. */
export type KeptPricing =
  | { units: KeptUnits; bill: Omit<DrawingBill, 'fileName'>; warnings: string[] }
  | { units: KeptUnits; failed: string }

/** Pricings kept at most: each is a drawing's items, a few kilobytes. */
const MAX_KEPT = 5000

/**
 * Each drawing's pricing kept in this process, by its job and the versions of the tables that
 * priced it: a job's measured bill never changes, nor does a saved version, so a bill assembled
 * again prices only the drawings whose job or tables are new (a new version, new rules).
 */
export function keptPricings() {
  const kept = new LRUCache<string, KeptPricing>({ max: MAX_KEPT })
  const keyOf = (jobId: string, versions: readonly (number | null)[]) =>
    `${jobId}\n${versions.join('\n')}`
  return {
    get: (jobId: string, versions: readonly (number | null)[]) => kept.get(keyOf(jobId, versions)),
    keep(jobId: string, versions: readonly (number | null)[], pricing: KeptPricing): void {
      kept.set(keyOf(jobId, versions), pricing)
    },
  }
}

export type KeptPricings = ReturnType<typeof keptPricings>
