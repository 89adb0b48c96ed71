/**
 * What a file says about its own structure, read from its bytes apart from LibreDWG.
 *
 * R13–R2000 (AC1012, AC1014, AC1015) keep the object map and every object uncompressed, each with
 * a CRC: what the file announces and which of it is intact can be checked directly. Later
 * releases compress both (LibreDWG checks their pages' checksums itself).
 *
 * R11/R12 (AC1009) entities carry no checksum, but lie one after another, each starting with its
 * length: a length that leads nowhere is a break in the section, past which nothing can be read
 * (and on which LibreDWG may loop for ever).
 */
export type FileCheck = {
  /** Objects the object map announces (R13–R2000; 0 for other releases). */
  announced: number
  /** Entries of the map that lead to no object: outside the file, or no size to read. */
  unreachable: number
  /** CRCs that do not match their bytes: the file header's, the map's pages', the objects'. */
  failedChecksums: number
  /** Objects among them: read, perhaps, but not as written. */
  failedObjects: number
  /** Whether the map itself could be read to its end (false: it breaks off early). */
  complete: boolean
  /** Where a section of R11 entities breaks off (a reason to refuse the file), or null. */
  broken: string | null
  /** R11: the entities its model-space section holds (vertices, attributes, ends not counted). */
  modelSpace: number | null
}

/** Releases whose layout this reads. */
const RELEASES = new Set(['AC1012', 'AC1014', 'AC1015'])
/** Where the count of section locators is, and where the locators start (9 bytes each). */
const LOCATOR_COUNT = 0x15
const LOCATORS = 0x19
const LOCATOR_SIZE = 9
/** The object map is section 2. */
const OBJECT_MAP = 2
/** A map page is at most this long (its 2-byte size included), and 2 bytes ends the map. */
const MAX_PAGE = 2040
/** The seed of every CRC in these files. */
const SEED = 0xc0c1
const R11 = 'AC1009'
/** Where an R11 header has its entities section's start and end, and its blocks' start and end. */
const R11_ENTITIES = 0x14
const R11_BLOCKS = 0x1c
const R11_BLOCKS_END = 0x24
/** An R11 entity's type, flags and length. */
const R11_ENTITY_HEAD = 4
/** R11 entity types run from 1 (LINE) to 24 (VIEWPORT). */
const R11_LAST_TYPE = 24
/** Parts of another entity: ATTRIB, SEQEND, VERTEX. */
const R11_PARTS = new Set([16, 17, 20])

/** The file's own structure checked, or null when the release is not one this reads. */
export function checkFile(bytes: Uint8Array, version: string): FileCheck | null {
  if (version === R11) return checkR11(new Bytes(bytes))
  if (!RELEASES.has(version)) return null
  const file = new Bytes(bytes)
  const check = emptyCheck()
  const sections = file.u32(LOCATOR_COUNT)
  const end = LOCATORS + sections * LOCATOR_SIZE
  if (sections <= OBJECT_MAP || sections > 16 || end + 2 > bytes.length) return check
  if (crc(bytes, 0, end) !== file.u16(end)) check.failedChecksums++
  const at = LOCATORS + OBJECT_MAP * LOCATOR_SIZE
  const start = file.u32(at + 1)
  const size = file.u32(at + 5)
  if (start + size > bytes.length) return check
  readMap(file, start, check)
  return check
}

/** Every page of the map from `start`: entries counted, pages' and objects' CRCs checked. */
function readMap(file: Bytes, start: number, check: FileCheck): void {
  let page = start
  for (;;) {
    const size = file.u16be(page)
    if (size < 2 || size > MAX_PAGE || page + size + 2 > file.length) return
    if (crc(file.bytes, page, page + size) !== file.u16be(page + size)) check.failedChecksums++
    if (size === 2) {
      check.complete = true
      return
    }
    // Each page counts its objects' addresses afresh, from the start of the file.
    let address = 0
    const cursor = { at: page + 2 }
    while (cursor.at < page + size) {
      file.modularChar(cursor, false) // the handle's step from the previous one
      address += file.modularChar(cursor, true)
      check.announced++
      const object = objectCrc(file, address)
      if (object === null) check.unreachable++
      else if (!object) {
        check.failedChecksums++
        check.failedObjects++
      }
    }
    if (cursor.at !== page + size) return // an entry runs over its page: the map is misread
    page += size + 2
  }
}

function emptyCheck(): FileCheck {
  return {
    announced: 0,
    unreachable: 0,
    failedChecksums: 0,
    failedObjects: 0,
    complete: false,
    broken: null,
    modelSpace: null,
  }
}

/**
 * R11/R12: the model-space entities section must be a run of entities that ends where the header
 * says; the block definitions' section (which may end in other data) must hold no entity that
 * cannot be read.
 */
function checkR11(file: Bytes): FileCheck {
  const check = emptyCheck()
  const entities = entityRun(file, file.u32(R11_ENTITIES), file.u32(R11_ENTITIES + 4))
  if (entities.broken) {
    check.broken = `its entities section breaks off after ${plural(entities.count)}`
    return check
  }
  const blocks = entityRun(file, file.u32(R11_BLOCKS), file.u32(R11_BLOCKS_END))
  if (blocks.unreadable) {
    check.broken = `its block definitions section breaks off after ${plural(blocks.count)}`
  }
  check.complete = true
  check.modelSpace = entities.placed
  return check
}

/**
 * Entities from `start` to `end`, each `[type, flags, length (2 bytes)]` and the rest: how many
 * before a break (`broken`), and whether the break is one no reader gets past (`unreadable`: a
 * length of 0, or a type no R11 entity has); `placed`: those that are entities of their own (not
 * deleted, not a part of another).
 */
function entityRun(
  file: Bytes,
  start: number,
  end: number,
): { count: number; placed: number; broken: boolean; unreadable: boolean } {
  let at = start
  let count = 0
  let placed = 0
  const bounded = start <= end && end <= file.length
  while (bounded && at < end) {
    // The top bit of the type marks a deleted entity.
    const type = file.u8(at) & 0x7f
    const length = file.u16(at + 2)
    const unreadable = length === 0 || type === 0 || type > R11_LAST_TYPE
    if (unreadable || length < R11_ENTITY_HEAD || at + length > end) {
      return { count, placed, broken: true, unreadable }
    }
    if (!(file.u8(at) & 0x80) && !R11_PARTS.has(type)) placed++
    at += length
    count++
  }
  return { count, placed, broken: !bounded, unreadable: false }
}

function plural(n: number): string {
  return `${n} ${n === 1 ? 'entity' : 'entities'}`
}

/** Whether the object at `address` has the CRC of its bytes; null when it cannot be reached. */
function objectCrc(file: Bytes, address: number): boolean | null {
  const cursor = { at: address }
  const size = file.modularShort(cursor)
  if (size === null || size === 0 || cursor.at + size + 2 > file.length || address <= 0) return null
  return crc(file.bytes, address, cursor.at + size) === file.u16(cursor.at + size)
}

/** The files' CRC-16 (reflected polynomial 0xA001), seeded as the format seeds it. */
function crc(bytes: Uint8Array, from: number, to: number): number {
  let value = SEED
  for (let i = from; i < to; i++) value = (value >>> 8) ^ TABLE[(value ^ bytes[i]) & 0xff]
  return value
}

const TABLE = Uint16Array.from({ length: 256 }, (_, n) => {
  let value = n
  for (let bit = 0; bit < 8; bit++) value = value & 1 ? (value >>> 1) ^ 0xa001 : value >>> 1
  return value
})

/** Little reads of the file's bytes; past the end they give 0 (a damaged file may point there). */
class Bytes {
  readonly bytes: Uint8Array
  readonly length: number

  constructor(bytes: Uint8Array) {
    this.bytes = bytes
    this.length = bytes.length
  }

  u8(at: number): number {
    return at >= 0 && at < this.length ? this.bytes[at] : 0
  }

  u16(at: number): number {
    return this.u8(at) | (this.u8(at + 1) << 8)
  }

  u16be(at: number): number {
    return (this.u8(at) << 8) | this.u8(at + 1)
  }

  u32(at: number): number {
    return (this.u16(at) | (this.u16(at + 2) << 16)) >>> 0
  }

  /**
   * A modular char: 7 bits a byte, low first, while the top bit is set; in a signed one the last
   * byte's 0x40 is the sign. At most 4 bytes (a longer one is a misread).
   */
  modularChar(cursor: { at: number }, signed: boolean): number {
    let value = 0
    for (let i = 0; i < 5; i++) {
      const byte = this.u8(cursor.at++)
      if (byte & 0x80) {
        value += (byte & 0x7f) * 2 ** (7 * i)
        continue
      }
      if (signed && byte & 0x40) return -(value + (byte & 0x3f) * 2 ** (7 * i))
      return value + (byte & (signed ? 0x3f : 0x7f)) * 2 ** (7 * i)
    }
    return value
  }

  /** A modular short: 15 bits a little-endian word while the top bit is set; at most 2 words. */
  modularShort(cursor: { at: number }): number | null {
    if (cursor.at + 2 > this.length) return null
    const first = this.u16(cursor.at)
    cursor.at += 2
    if (!(first & 0x8000)) return first
    if (cursor.at + 2 > this.length) return null
    const second = this.u16(cursor.at)
    cursor.at += 2
    return (first & 0x7fff) | ((second & 0x7fff) << 15)
  }
}
