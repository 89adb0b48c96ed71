import { type Drawing, type InsertRef, isUnresolvedAnonymous } from '../model/drawing.ts'
import type { BoqBlockCount, BoqReference } from '../model/schema.ts'

/** Past this many model-space references, the References view stops (the counts never do). */
export const MAX_REFERENCE_ROWS = 100_000

/** One count of the bill before numbering: a block (and its split values), per layer. */
export type CountLine = {
  block: string
  values: Record<string, string>
  layers: Map<string, CountRow>
}

/**
 * One layer of a count: how many, how many nested, and the model-space references counted (or
 * holding the counted ones) with how many each brought (what locations allocate by).
 */
export type CountRow = {
  count: number
  nested: number
  handles: Set<string>
  byHandle: Map<string, number>
}

export type Counts = {
  lines: CountLine[]
  blocks: BoqBlockCount[]
  references: BoqReference[]
  referencesCapped: boolean
  attributeTags: string[]
  propertyNames: string[]
  warnings: string[]
}

/** What one block definition holds, through every level: counted once per definition. */
type Content = { key: string; block: string; values: Record<string, string>; count: number }

/** The value a reference has for a split tag (`visibility` is the dynamic visibility state). */
function splitValues(ref: InsertRef, splitBy: string[]): Record<string, string> {
  const values: Record<string, string> = {}
  for (const tag of splitBy) {
    const value =
      tag.toLowerCase() === 'visibility'
        ? ref.properties.visibility
        : ref.attributes.find((a) => a.tag.toUpperCase() === tag.toUpperCase())?.value
    values[tag] = value ?? ''
  }
  return values
}

function keyOf(block: string, values: Record<string, string>): string {
  return [block, ...Object.values(values)].join('\u0000')
}

/**
 * Counts block references by effective name. Nested references are counted arithmetically: each
 * definition's contents once, multiplied by how often it is placed, never path by path, so a
 * small drawing of deeply nested blocks costs what its definitions cost. A nested reference is
 * counted on the layer of the model-space reference that holds it.
 */
export function countBlocks(drawing: Drawing, splitBy: string[], compare: Collator): Counts {
  const warnings: string[] = []
  const loops = loopClosingReferences(drawing.nestedInserts)
  const memo = new Map<string, Content[]>()

  const contentsOf = (definition: string): Content[] => {
    const known = memo.get(definition)
    if (known) return known
    const totals = new Map<string, Content>()
    const add = (key: string, block: string, values: Record<string, string>, count: number) => {
      const entry = totals.get(key)
      if (entry) entry.count += count
      else totals.set(key, { key, block, values, count })
    }
    for (const child of drawing.nestedInserts.get(definition) ?? []) {
      const values = splitValues(child, splitBy)
      add(keyOf(child.block, values), child.block, values, child.count)
      // A reference that closes a loop is counted, not followed (the readers warn of the loop).
      if (loops.has(child)) continue
      for (const inner of contentsOf(child.definition))
        add(inner.key, inner.block, inner.values, child.count * inner.count)
    }
    const contents = [...totals.values()]
    memo.set(definition, contents)
    return contents
  }

  const lines = new Map<string, CountLine>()
  const byLayer = new Map<string, BoqBlockCount>()
  const count = (
    key: string,
    block: string,
    values: Record<string, string>,
    layer: string,
    n: number,
    nested: boolean,
    handle: string,
  ) => {
    let line = lines.get(key)
    if (!line) {
      line = { block, values, layers: new Map() }
      lines.set(key, line)
    }
    let row = line.layers.get(layer)
    if (!row) {
      row = { count: 0, nested: 0, handles: new Set(), byHandle: new Map() }
      line.layers.set(layer, row)
    }
    row.count += n
    if (nested) row.nested += n
    if (handle) {
      row.handles.add(handle)
      row.byHandle.set(handle, (row.byHandle.get(handle) ?? 0) + n)
    }
    const tableKey = `${block}\u0000${layer}`
    const table = byLayer.get(tableKey) ?? { block, layer, count: 0, nested: 0 }
    table.count += n
    if (nested) table.nested += n
    byLayer.set(tableKey, table)
  }

  const references: BoqReference[] = []
  const tags = new Set<string>()
  const properties = new Set<string>()
  for (const ref of drawing.inserts) {
    const values = splitValues(ref, splitBy)
    count(keyOf(ref.block, values), ref.block, values, ref.layer, ref.count, false, ref.handle)
    const contents = contentsOf(ref.definition)
    for (const inner of contents)
      count(
        inner.key,
        inner.block,
        inner.values,
        ref.layer,
        ref.count * inner.count,
        true,
        ref.handle,
      )
    if (references.length >= MAX_REFERENCE_ROWS) continue
    const attributes: Record<string, string> = {}
    for (const { tag, value } of ref.attributes) {
      attributes[tag] = value
      tags.add(tag)
    }
    for (const name of Object.keys(ref.properties)) properties.add(name)
    references.push({
      handle: ref.handle,
      block: ref.block,
      definition: ref.definition,
      layer: ref.layer,
      count: ref.count,
      x: ref.x,
      y: ref.y,
      attributes,
      properties: { ...ref.properties },
      nested: summary(contents, ref.count),
    })
  }

  const referencesCapped = drawing.inserts.length > MAX_REFERENCE_ROWS
  if (referencesCapped) {
    warnings.push(
      `The References list stops at ${MAX_REFERENCE_ROWS.toLocaleString('en')} of ${drawing.inserts.length.toLocaleString('en')} model-space references; the bill counts them all.`,
    )
  }
  warnings.push(...unresolvedWarnings(lines))
  if ([...byLayer.values()].some((b) => !Number.isSafeInteger(b.count))) {
    warnings.push(
      'Some counts are too large to be exact (nested blocks multiply past 2^53): they are rounded.',
    )
  }

  return {
    lines: [...lines.values()].sort(
      (a, b) =>
        compare(a.block, b.block) ||
        compare(Object.values(a.values).join(' '), Object.values(b.values).join(' ')),
    ),
    blocks: [...byLayer.values()].sort(
      (a, b) => compare(a.block, b.block) || compare(a.layer, b.layer),
    ),
    references,
    referencesCapped,
    attributeTags: [...tags],
    propertyNames: [...properties],
    warnings,
  }
}

export type Collator = (a: string, b: string) => number

/**
 * The nested references that close a loop of blocks containing themselves, found by one walk over
 * the definitions in name order, so which reference counts as closing a loop does not depend on
 * where the drawing places its blocks. Without them the definitions form a tree of contents that
 * can be counted once each.
 */
function loopClosingReferences(nested: Map<string, InsertRef[]>): Set<InsertRef> {
  const closing = new Set<InsertRef>()
  const state = new Map<string, 'open' | 'done'>()
  const visit = (definition: string) => {
    state.set(definition, 'open')
    for (const child of nested.get(definition) ?? []) {
      const seen = state.get(child.definition)
      if (seen === 'open') closing.add(child)
      else if (!seen) visit(child.definition)
    }
    state.set(definition, 'done')
  }
  for (const definition of [...nested.keys()].sort()) if (!state.has(definition)) visit(definition)
  return closing
}

/** Nested references of one placed reference by block name, multiplied by its own count. */
function summary(contents: Content[], times: number): { block: string; count: number }[] {
  const byBlock = new Map<string, number>()
  for (const c of contents) byBlock.set(c.block, (byBlock.get(c.block) ?? 0) + c.count * times)
  return [...byBlock].map(([block, count]) => ({ block, count }))
}

/** References whose dynamic block could not be named are counted under their `*U…` names: say so. */
function unresolvedWarnings(lines: Map<string, CountLine>): string[] {
  const names = new Map<string, number>()
  for (const line of lines.values()) {
    if (!isUnresolvedAnonymous(line.block)) continue
    let total = 0
    for (const row of line.layers.values()) total += row.count
    names.set(line.block, (names.get(line.block) ?? 0) + total)
  }
  if (names.size === 0) return []
  const total = [...names.values()].reduce((a, b) => a + b, 0)
  const list = [...names.keys()].map((n) => `\`${n}\``).join(', ')
  return [
    `${total.toLocaleString('en')} reference${total === 1 ? '' : 's'} of anonymous block${names.size === 1 ? '' : 's'} ${list} counted under ${names.size === 1 ? 'that name' : 'those names'}: their dynamic block could not be identified.`,
  ]
}
