import type { BillGroup, BillLine } from './boq.ts'

/**
 * Bill lines shown as one: the blocks AutoCAD makes when content is pasted as a block (`A$C`
 * and hex digits, `A$C00294823A`) are many, unnamed by a person, and each a line of its own;
 * they read as one expandable line, `Pasted blocks (27 kinds, 40 placed)`, whose children are
 * the blocks. Shared by the engine (which writes the groups into the JSON) and the app.
 */

export const PASTED_BLOCKS = 'Pasted blocks'

/** The block filter of a rule that takes every pasted block. */
export const PASTED_BLOCKS_GLOB = 'A$C*'

/** A block name AutoCAD gave content pasted as a block. */
export function isPastedBlock(name: string): boolean {
  return /^A\$C[0-9A-F]+$/i.test(name)
}

/** `Pasted blocks (27 kinds, 40 placed)`: how many blocks, and how many references of them. */
export function groupDescription(name: string, kinds: number, placed: number): string {
  const of = (n: number, one: string, many: string) =>
    `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`
  return `${name} (${of(kinds, 'kind', 'kinds')}, ${of(placed, 'placed', 'placed')})`
}

/** A bill's groups, from its lines: pasted blocks' count lines, when there are two or more. */
export function billGroups(lines: readonly BillLine[]): BillGroup[] {
  const pasted = lines.filter(
    (line) => line.kind === 'count' && line.block !== undefined && isPastedBlock(line.block),
  )
  if (pasted.length < 2) return []
  const kinds = new Set(pasted.map((line) => line.block)).size
  const placed = pasted.reduce((sum, line) => sum + line.quantity, 0)
  return [
    {
      name: PASTED_BLOCKS,
      description: groupDescription(PASTED_BLOCKS, kinds, placed),
      kind: 'count',
      lines: pasted.map((line) => line.ref),
      quantity: placed,
      unit: 'nr',
    },
  ]
}

/** The groups of a bill as kept: its own, or (a bill kept before groups) worked out from its lines. */
export function groupsOf(boq: { bill: readonly BillLine[]; groups?: BillGroup[] }): BillGroup[] {
  return boq.groups ?? billGroups(boq.bill)
}

/** Each grouped line's group, by the line's ref. */
export function groupByLine(groups: readonly BillGroup[]): ReadonlyMap<string, BillGroup> {
  const byLine = new Map<string, BillGroup>()
  for (const group of groups) for (const ref of group.lines) byLine.set(ref, group)
  return byLine
}

/** One entry of a list shown with its groups: a row of its own, or a group and its rows. */
export type Grouped<Row> = { row: Row } | { group: BillGroup; rows: Row[] }

/**
 * Rows (bill lines, not-classified lines…) with those of one group together, in the place of the
 * group's first row, the others in their order. `lineOf` says which bill line a row is of. A
 * group of one row shown is that row.
 */
export function withGroups<Row>(
  rows: readonly Row[],
  groups: readonly BillGroup[],
  lineOf: (row: Row) => string,
): Grouped<Row>[] {
  if (groups.length === 0) return rows.map((row) => ({ row }))
  const byLine = groupByLine(groups)
  const out: Grouped<Row>[] = []
  const open = new Map<BillGroup, { group: BillGroup; rows: Row[] }>()
  for (const row of rows) {
    const group = byLine.get(lineOf(row))
    if (!group) {
      out.push({ row })
      continue
    }
    let entry = open.get(group)
    if (!entry) {
      entry = { group, rows: [] }
      open.set(group, entry)
      out.push(entry)
    }
    entry.rows.push(row)
  }
  return out.map((entry) =>
    'group' in entry && entry.rows.length === 1 ? { row: entry.rows[0] as Row } : entry,
  )
}
