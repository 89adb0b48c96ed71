import type { BillLine } from '#contract/boq.ts'

/** What the person selected in the bill: a line, or one row of its breakdown. */
export type Selection = { ref: string; row: number | null }

/** Which bill lines name each entity handle, in bill order. */
export type HandleIndex = ReadonlyMap<string, readonly string[]>

/**
 * The entity handles a selection names: a line's are those of all its breakdown rows, a row's its
 * own; each once, in the order the bill lists them. Empty when nothing (or nothing known) is selected.
 */
export function handlesOf(lines: readonly BillLine[], selection: Selection | null): string[] {
  if (!selection) return []
  const line = lines.find((candidate) => candidate.ref === selection.ref)
  if (!line) return []
  const rows =
    selection.row === null ? line.breakdown : line.breakdown.slice(selection.row, selection.row + 1)
  return [...new Set(rows.flatMap((row) => row.handles))]
}

/** Every handle of the bill with the lines whose breakdown holds it (built once per bill). */
export function indexHandles(lines: readonly BillLine[]): HandleIndex {
  const index = new Map<string, string[]>()
  for (const line of lines) {
    for (const row of line.breakdown) {
      for (const handle of row.handles) {
        const refs = index.get(handle)
        if (!refs) index.set(handle, [line.ref])
        else if (refs.at(-1) !== line.ref) refs.push(line.ref)
      }
    }
  }
  return index
}

/**
 * The bill line to select for an entity picked in the drawing: the first line whose breakdown holds
 * its handle. A reference holding nested blocks is named by several lines (its own block's and the
 * nested ones'), so picking it again while one of them is selected moves to the next, round.
 * Null when no line names the handle (text, dimensions and the rest the bill does not measure).
 */
export function lineOfHandle(
  index: HandleIndex,
  handle: string,
  selectedRef: string | null = null,
): string | null {
  const refs = index.get(handle)
  if (!refs || refs.length === 0) return null
  const at = selectedRef === null ? -1 : refs.indexOf(selectedRef)
  return refs[(at + 1) % refs.length] ?? null
}
