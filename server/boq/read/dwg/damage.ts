import { BoqError } from '../../model/boq-error.ts'
import type { FileCheck } from './file-check.ts'
import type { Ptr } from './ptr.ts'

/** LibreDWG's bit for a checksum that does not match (a section's, a page's, an object's). */
const WRONG_CRC = 1

/**
 * What the walk of one drawing finds missing: references of the drawing that lead to no object
 * LibreDWG read. An undamaged drawing has none. R11/R12 records list no entities by handle
 * (`lists` false); their layers and blocks, named by table index, are looked at all the same.
 */
export class DamageLog {
  private readonly lists: boolean
  /** Block records whose entity list has been looked at, and how many of it were not read. */
  private readonly unreadBy = new Map<Ptr, number>()
  private listedCount = 0
  private readonly layersLooked = new Set<Ptr>()
  private readonly layersLost = new Set<Ptr>()
  private readonly blocksLost = new Set<Ptr>()
  private readonly broken = new Set<Ptr>()
  private modelSpaceMissing = false

  constructor(lists: boolean) {
    this.lists = lists
  }

  /** A block record's entity list: `listed` entities named, `unread` of them not read. */
  list(record: Ptr, listed: number, unread: number): void {
    if (!this.lists || this.unreadBy.has(record)) return
    this.unreadBy.set(record, unread)
    this.listedCount += listed
  }

  /** Entities a record lists that could not be read (0 when its list has not been looked at). */
  unreadIn(record: Ptr): number {
    return this.unreadBy.get(record) ?? 0
  }

  /** No model space record: every drawing since R13 has one, the root of its bill. */
  noModelSpace(): void {
    if (this.lists) this.modelSpaceMissing = true
  }

  get modelSpaceLost(): boolean {
    return this.modelSpaceMissing
  }

  /** A block record whose chain of entities comes back on itself. */
  brokenList(record: Ptr): void {
    this.broken.add(record)
  }

  /** An entity's layer looked up; `found` false when its reference leads to no layer. */
  layer(entity: Ptr, found: boolean): void {
    this.layersLooked.add(entity)
    if (!found) this.layersLost.add(entity)
  }

  /** A block reference whose block record could not be read. */
  blockLost(reference: Ptr): void {
    this.blocksLost.add(reference)
  }

  get listed(): number {
    return this.listedCount
  }

  get unread(): number {
    let sum = 0
    for (const n of this.unreadBy.values()) sum += n
    return sum
  }

  get layers(): { looked: number; lost: number } {
    return { looked: this.layersLooked.size, lost: this.layersLost.size }
  }

  get blocks(): number {
    return this.blocksLost.size
  }

  get brokenLists(): number {
    return this.broken.size
  }
}

/** What reading the file told before the walk. */
export type FileFindings = {
  /** LibreDWG's error bits from reading the file (the fatal ones have stopped the read already). */
  flags: number
  /** The file's own checks (R11/R12, R13–R2000), null for other releases. */
  file: FileCheck | null
  /** Objects LibreDWG read. */
  objects: number
}

/** What the walk found in model space: the entities it counted. */
export type WalkFindings = { modelSpace: number }

/**
 * The damage warning a drawing's bill carries, or null when nothing is missing or failed; a
 * drawing of which most is lost is refused (BoqError 'corrupt'): its bill would not be its own.
 */
export function damageWarning(
  log: DamageLog,
  found: FileFindings,
  walked: WalkFindings,
): string | null {
  const { file, objects } = found
  const mapLost = file ? Math.max(0, file.announced - objects) : 0
  // R11: the entities the model-space section holds against those the walk met.
  const announced = file?.modelSpace ?? 0
  const notMet = Math.max(0, announced - walked.modelSpace)
  if (notMet > announced / 2) {
    refuse(
      `only ${walked.modelSpace} of the ${announced} entities of its model space could be read`,
    )
  }
  if (file && file.announced > 0 && mapLost + file.failedObjects > file.announced / 2) {
    refuse(
      `${mapLost + file.failedObjects} of the ${file.announced} objects it announces could not be read or fail their checksums`,
    )
  }
  if (log.modelSpaceLost) refuse('its model space could not be read')
  const { listed, unread } = log
  if (listed > 0 && unread > listed / 2) {
    refuse(`${unread} of the ${listed} entities its blocks and layouts list could not be read`)
  }
  const layers = log.layers
  if (layers.looked > 0 && layers.lost > layers.looked / 2) {
    refuse(`${layers.lost} of ${layers.looked} entities refer to a layer that could not be read`)
  }

  const parts: string[] = []
  const lost = mapLost + unread + notMet
  // Without the file's own count of its objects, those missing are found by what refers to them.
  const atLeast = file ? '' : 'at least '
  if (lost > 0) parts.push(`${atLeast}${plural(lost, 'object')} could not be read`)
  const checksums = file?.failedChecksums ?? 0
  if (checksums > 0) parts.push(`${plural(checksums, 'checksum')} failed`)
  else if (found.flags & WRONG_CRC) parts.push('some of its checksums failed')
  if (layers.lost > 0) {
    parts.push(
      `${plural(layers.lost, 'entity', 'entities')} refer${layers.lost === 1 ? 's' : ''} to a layer that could not be read (measured on layer 0)`,
    )
  }
  if (log.brokenLists > 0) {
    parts.push(
      `${plural(log.brokenLists, 'list of entities', 'lists of entities')} of its blocks and layouts ${log.brokenLists === 1 ? 'is' : 'are'} broken`,
    )
  }
  if (log.blocks > 0) {
    parts.push(
      `${plural(log.blocks, 'block reference')} refer${log.blocks === 1 ? 's' : ''} to a block that could not be read`,
    )
  }
  if (parts.length === 0) return null
  return `The drawing is damaged: ${parts.join(', ')}; its figures may be incomplete.`
}

function refuse(reason: string): never {
  throw new BoqError('corrupt', `Truncated or corrupt (${reason}).`)
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}
