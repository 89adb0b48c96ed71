/**
 * A table of rows summed over a bill's drawings (its items, or its measured lines), kept between
 * assemblies: each row holds every drawing's share of it, and is made again (with its JSON) only
 * when a share changes. A drawing with a new part (a new version billed) puts its shares in and
 * takes those it no longer has out, so a bill of thousands of lines over dozens of drawings is not
 * summed from the start for one drawing's new version.
 */
export interface RowsSpec<Share, Made> {
  /** Two shares of one drawing say the same (its row need not be made again). */
  same(a: Share, b: Share): boolean
  /** The row made from its drawings' shares, in the bill's order of drawings. */
  make(shares: Share[]): Made
  /** The rows' order. */
  compare(a: Made, b: Made): number
}

interface Row<Share, Made> {
  shares: Map<string, Share>
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
      for (const key of byDrawing.get(drawingId)?.keys() ?? []) {
        if (shares?.has(key)) continue
        const row = rows.get(key) as Row<Share, Made>
        row.shares.delete(drawingId)
        remake(row)
        if (row.shares.size === 0) {
          rows.delete(key)
          sorted = undefined
        }
      }
      for (const [key, share] of shares ?? []) {
        let row = rows.get(key)
        if (!row) {
          row = { shares: new Map() }
          rows.set(key, row)
          sorted = undefined
        }
        const was = row.shares.get(drawingId)
        if (was !== undefined && spec.same(was, share)) continue
        row.shares.set(drawingId, share)
        remake(row)
      }
      if (shares) byDrawing.set(drawingId, shares)
      else byDrawing.delete(drawingId)
    },

    /** Every row made again (the drawings' order changed: each row lists its shares in it). */
    remakeAll(): void {
      for (const row of rows.values()) remake(row)
    },

    /** The rows in order, and their JSON array, for drawings in `order`. */
    rows(order: readonly string[]): { rows: Made[]; json: string } {
      if (made) return made
      for (const row of rows.values()) {
        if (row.made) continue
        const shares: Share[] = []
        for (const id of order) {
          const share = row.shares.get(id)
          if (share !== undefined) shares.push(share)
        }
        const value = spec.make(shares)
        row.made = { row: value, json: JSON.stringify(value) }
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
