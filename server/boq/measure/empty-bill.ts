import { NO_QUANTITIES, PAPER_SPACE } from '#contract/no-quantities.ts'
import type { BoqNotMeasured, BoqXref } from '../model/schema.ts'

/** Kinds named in the sentence before the rest are only counted. */
const KINDS_SAID = 5

const said = (n: number) => n.toLocaleString('en-US')

/**
 * Why a bill has no line, in one sentence starting `No quantities measured:`: model space is
 * empty, or all it holds is of kinds the bill does not measure, each named with its count and
 * why (the most numerous first).
 */
export function emptyBillWarning(
  modelSpaceEntities: number,
  notMeasured: BoqNotMeasured[],
  xrefs: BoqXref[],
): string {
  if (modelSpaceEntities === 0) {
    const paper = notMeasured.find((n) => n.type === PAPER_SPACE)?.count ?? 0
    const where =
      paper > 0
        ? `the drawing's ${said(paper)} ${paper === 1 ? 'entity is' : 'entities are'} on layouts (paper space), which are not counted`
        : 'the content may be in block definitions'
    return `${NO_QUANTITIES}: model space is empty; ${where}.`
  }
  const held = notMeasured.filter((n) => n.type !== PAPER_SPACE)
  const placed = xrefs.reduce((sum, x) => sum + x.placed.length, 0)
  if (placed > 0) {
    held.push({
      type: 'attached drawing',
      count: placed,
      reason: 'its content is not in this file',
    })
  }
  held.sort((a, b) => b.count - a.count)
  const byReason = new Map<string, string[]>()
  for (const n of held.slice(0, KINDS_SAID)) {
    const kinds = byReason.get(n.reason) ?? []
    kinds.push(`${n.type} × ${said(n.count)}`)
    byReason.set(n.reason, kinds)
  }
  const groups = [...byReason].map(([reason, kinds]) => `${kinds.join(', ')} (${reason})`)
  const rest = held.length - KINDS_SAID
  const more =
    rest > 0 ? `; and ${rest} other ${rest === 1 ? 'kind' : 'kinds'} (see Not measured)` : ''
  return `${NO_QUANTITIES}: model space holds only what the bill does not measure: ${groups.join('; ')}${more}.`
}
