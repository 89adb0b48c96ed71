/**
 * The geometry's owners by handle: which of the handles a bill line names are model-space
 * entities of the drawing. Handles are hex, matched whatever their case; the lookup is made on
 * first use (a drawing shown without a highlight never needs it).
 */
export class OwnerIndex {
  private readonly handles: readonly string[]
  private byHandle: Map<string, number> | undefined

  constructor(handles: readonly string[]) {
    this.handles = handles
  }

  /**
   * The owners of these handles, once each, in the order given, with their handles as the
   * geometry spells them. An entity with nothing drawn is found too: it is in model space.
   */
  find(handles: readonly string[]): { handles: string[]; owners: number[] } {
    if (handles.length === 0) return { handles: [], owners: [] }
    const byHandle = this.lookup()
    const owners = new Set<number>()
    for (const handle of handles) {
      const owner = byHandle.get(handle.toUpperCase())
      if (owner !== undefined) owners.add(owner)
    }
    const found = [...owners]
    return { handles: found.map((owner) => this.handles[owner]), owners: found }
  }

  /** Makes the lookup now (tens of milliseconds for 200,000 handles), if not made yet. */
  lookup(): Map<string, number> {
    if (!this.byHandle) {
      this.byHandle = new Map()
      for (let owner = 0; owner < this.handles.length; owner++) {
        this.byHandle.set(this.handles[owner].toUpperCase(), owner)
      }
    }
    return this.byHandle
  }
}

/** One flag an owner, set (1) for these. */
export function ownerMask(ownerCount: number, owners: Iterable<number>): Uint8Array {
  const mask = new Uint8Array(ownerCount)
  for (const owner of owners) mask[owner] = 1
  return mask
}
