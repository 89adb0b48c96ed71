import { PASTED_BLOCKS_GLOB } from '#contract/bill-groups.ts'
import type { BillGroup } from '#contract/boq.ts'
import type { NotClassified, RuleMatch } from '#contract/takeoff-rules.ts'

/** A rule to start with on the rules page: its match, its filters and a description. */
export type RuleDraft = {
  match: RuleMatch
  block?: string
  layer?: string
  kind?: string
  description: string
}

/** A not-classified line as the list tells it apart: its line, block, layer and kinds. */
export const lineKey = (line: NotClassified) =>
  `${line.line}:${line.block ?? ''}:${line.layer}:${line.kind ?? ''}`

/** The rule a single line would start: a count by its block, linework and areas by layer and kinds. */
export function ruleForLine(line: NotClassified): RuleDraft {
  return {
    match: line.match,
    ...(line.block ? { block: line.block } : { layer: line.layer }),
    ...(line.kind ? { kind: line.kind } : {}),
    description: line.description,
  }
}

/**
 * The rules for several selected lines, as a surveyor means them. A layer is what a drawing's
 * author groups one thing on: the arcs, polylines and splines of `Tavolo 2` are one table's edge,
 * so lines of one layer and match are one rule, their kinds listed (`arc,polyline,spline`).
 * Blocks are each a thing of their own (a door, a window), so each block is a rule of its own,
 * except a group whose every line is selected (all the pasted blocks), which is one rule for the
 * group. Rules come in the order of their first line; each is an unsaved row to check and edit.
 */
export function rulesForLines(
  selected: readonly NotClassified[],
  wholeGroups: readonly BillGroup[] = [],
  groupOf: (line: NotClassified) => BillGroup | undefined = () => undefined,
): RuleDraft[] {
  const drafts = new Map<string, { draft: RuleDraft; words: string[] }>()
  for (const line of selected) {
    const group = groupOf(line)
    if (group && wholeGroups.includes(group)) {
      const key = `group\u0000${group.name}`
      if (!drafts.has(key)) {
        const draft = { match: line.match, block: PASTED_BLOCKS_GLOB, description: group.name }
        drafts.set(key, { draft, words: [] })
      }
      continue
    }
    if (line.match === 'count') {
      const key = `count\u0000${line.block ?? line.description}`
      if (!drafts.has(key)) drafts.set(key, { draft: ruleForLine(line), words: [] })
      continue
    }
    const key = `${line.match}\u0000${line.layer}`
    const known = drafts.get(key)
    if (!known) {
      drafts.set(key, { draft: ruleForLine(line), words: [line.description] })
      continue
    }
    const kinds = new Set([...kindsOf(known.draft.kind), ...kindsOf(line.kind)])
    if (kinds.size > 0) known.draft.kind = [...kinds].join(',')
    if (!known.words.includes(line.description)) known.words.push(line.description)
    known.draft.description = together(known.words, line.layer)
  }
  return [...drafts.values()].map(({ draft }) => draft)
}

function kindsOf(kind: string | undefined): string[] {
  return (kind ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
}

/** `Arcs on layer X` and `Splines on layer X` together: `Arcs and splines on layer X`. */
function together(words: string[], layer: string): string {
  const suffix = ` on layer ${layer}`
  if (!words.every((word) => word.endsWith(suffix))) return words.join('; ')
  const heads = words.map((word, i) => {
    const head = word.slice(0, -suffix.length)
    return i === 0 ? head : head.charAt(0).toLowerCase() + head.slice(1)
  })
  const list =
    heads.length === 1
      ? heads[0]
      : `${heads.slice(0, -1).join(', ')} and ${heads[heads.length - 1]}`
  return `${list}${suffix}`
}
