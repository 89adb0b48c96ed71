import { setImmediate } from 'node:timers/promises'

/**
 * A table of rows summed over a bill's drawings (its items, or its measured lines), kept between
 * assemblies: each row holds every drawing's share of it, and is made again (with its JSON) only
 * when a share changes. A drawing with a new part (a new version billed) puts its shares in and
 * takes those it no longer has out, so a bill of thousands of lines over dozens of drawings is not
 * summed from the start for one drawing's new version.
 */
/** Rows made between two looks at the other requests waiting. */
const ROWS_AT_ONCE = 250

export interface RowsSpec<Share, Made> {
  /** Two shares of one drawing say the same (its row need not be made again). */
  same(a: Share, b: Share): boolean
  /** The row of `key` made from its drawings' shares (and their ids), in the bill's order. */
  make(key: string, shares: Share[], drawingIds: string[]): Made
  /** The rows' order. */
  compare(a: Made, b: Made): number
}

/**
 * A row: its drawings and their shares side by side (a few dozen drawings: looked through, not
 * hashed), in the order they were put in, put in the bill's order when it is made.
 */
interface Row<Share, Made> {
  key: string
  drawingIds: string[]
  shares: Share[]
  made?: { row: Made; json: string }
}

export function summedRows<Share, Made>(spec: RowsSpec<Share, Made>) {
  const rows = new Map<string, Row<Share, Made>>()
  /** Each drawing's shares, by row key, as last put in. */
  const byDrawing = new Map<string, Map<string, Share>>()
  let sorted: Row<Share, Made>[] | undefined
  let made: { rows: Made[]; json: string } | undefined

  const remake = (row: Row<Share, Made>) => {
    row.made = undefined
    made = undefined
  }

  return {
    /** A drawing's shares now, by row key (undefined: it left the bill). */
    put(drawingId: string, shares: Map<string, Share> | undefined): void {
      const before = byDrawing.get(drawingId)
      for (const key of before?.keys() ?? []) {
        if (shares?.has(key)) continue
        const row = rows.get(key) as Row<Share, Made>
        const index = row.drawingIds.indexOf(drawingId)
        row.drawingIds.splice(index, 1)
        row.shares.splice(index, 1)
        remake(row)
        if (row.shares.length === 0) {
          rows.delete(key)
          sorted = undefined
        }
      }
      for (const [key, share] of shares ?? []) {
        let row = rows.get(key)
        if (!row) {
          row = { key, drawingIds: [], shares: [] }
          rows.set(key, row)
          sorted = undefined
        }
        // A row the drawing was not in has it last (looked for only in a row it was in).
        const index = before?.has(key) ? row.drawingIds.indexOf(drawingId) : -1
        if (index < 0) {
          row.drawingIds.push(drawingId)
          row.shares.push(share)
        } else if (spec.same(row.shares[index] as Share, share)) continue
        else row.shares[index] = share
        remake(row)
      }
      if (shares) byDrawing.set(drawingId, shares)
      else byDrawing.delete(drawingId)
    },

    /** Every row made again (the drawings' order changed: each row lists its shares in it). */
    remakeAll(): void {
      for (const row of rows.values()) remake(row)
    },

    /**
     * The rows in order, and their JSON array, for drawings in `order`; other requests are
     * answered every few hundred rows made (a bill made from the start makes thousands).
     */
    async rows(order: readonly string[]): Promise<{ rows: Made[]; json: string }> {
      if (made) return made
      const position = new Map(order.map((id, index) => [id, index]))
      let madeNow = 0
      for (const row of rows.values()) {
        if (row.made) continue
        inOrder(row, position)
        const value = spec.make(row.key, row.shares, row.drawingIds)
        row.made = { row: value, json: JSON.stringify(value) }
        if (++madeNow % ROWS_AT_ONCE === 0) await setImmediate()
      }
      sorted ??= [...rows.values()].sort((a, b) =>
        spec.compare((a.made as { row: Made }).row, (b.made as { row: Made }).row),
      )
      const ordered = sorted.map((row) => row.made as { row: Made; json: string })
      made = {
        rows: ordered.map((one) => one.row),
        json: `[${ordered.map((one) => one.json).join(',')}]`,
      }
      return made
    },
  }
}

/** The row's drawings and shares in the bill's order (already so, but when a drawing came in later). */
function inOrder<Share, Made>(row: Row<Share, Made>, position: Map<string, number>): void {
  const at = row.drawingIds.map((id) => position.get(id) ?? Number.MAX_SAFE_INTEGER)
  if (at.every((place, index) => index === 0 || (at[index - 1] as number) < place)) return
  const sorted = at.map((place, index) => ({ place, index })).sort((a, b) => a.place - b.place)
  const ids = sorted.map(({ index }) => row.drawingIds[index] as string)
  const shares = sorted.map(({ index }) => row.shares[index] as Share)
  row.drawingIds = ids
  row.shares = shares
}
