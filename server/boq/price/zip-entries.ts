import { Readable } from 'node:stream'
import { crc32, createInflateRaw } from 'node:zlib'

/** One file of a ZIP (an XLSX workbook), from its central directory. */
export type ZipEntry = {
  name: string
  /** 0 stored, 8 deflated: the two a workbook uses. */
  method: number
  crc32: number
  compressedSize: number
  /** What it says it unpacks to; it is never read past this. */
  size: number
  /** Where its packed bytes start. */
  dataStart: number
}

/**
 * The files of a ZIP, from its central directory, before anything unpacks them: a 1 MB workbook
 * may say it inflates a thousandfold. Null when the bytes are not a ZIP that can be read so
 * (ZIP64 included: no spreadsheet of rules needs it).
 */
export function zipEntries(bytes: Uint8Array): ZipEntry[] | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const u16 = (at: number) => view.getUint16(at, true)
  const u32 = (at: number) => view.getUint32(at, true)
  // The end record is 22 bytes, after which a comment of at most 65,535 bytes may follow.
  const lowest = Math.max(0, bytes.length - 22 - 0xffff)
  let end = -1
  for (let at = bytes.length - 22; at >= lowest; at--) {
    if (u32(at) === 0x06054b50) {
      end = at
      break
    }
  }
  if (end < 0) return null
  const count = u16(end + 10)
  let at = u32(end + 16)
  const entries: ZipEntry[] = []
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || u32(at) !== 0x02014b50) return null
    const compressedSize = u32(at + 20)
    const size = u32(at + 24)
    const local = u32(at + 42)
    if (size === 0xffffffff || compressedSize === 0xffffffff || local === 0xffffffff) return null
    const nameLength = u16(at + 28)
    if (at + 46 + nameLength > bytes.length) return null
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength))
    if (local + 30 > bytes.length || u32(local) !== 0x04034b50) return null
    const dataStart = local + 30 + u16(local + 26) + u16(local + 28)
    if (dataStart + compressedSize > bytes.length) return null
    entries.push({
      name,
      method: u16(at + 10),
      crc32: u32(at + 16),
      compressedSize,
      size,
      dataStart,
    })
    at += 46 + nameLength + u16(at + 30) + u16(at + 32)
  }
  return entries
}

/** A file to put in a made ZIP: one of the bytes' entries, or text of its own. */
export type ZipPart = ZipEntry | { name: string; text: string }

/**
 * The parts as a ZIP of stored files, in the order given, for a reader that reads a ZIP from
 * start to end: each entry inflated only as far as it is read, and never past the size it
 * declares (a file that unpacks to more, or less, ends the stream early, which the reader sees as
 * a damaged file; `damage` then says why, and `damaged` resolves). No central directory: a
 * streaming reader stops at the last file.
 */
export function storedZipStream(
  bytes: Uint8Array,
  parts: ZipPart[],
): { stream: Readable; damage: () => string | undefined; damaged: Promise<void> } {
  let damage: string | undefined
  let said = () => {}
  const damaged = new Promise<void>((resolve) => {
    said = resolve
  })
  async function* unpacked(): AsyncGenerator<Uint8Array> {
    for (const part of parts) {
      if ('text' in part) {
        const data = new TextEncoder().encode(part.text)
        yield localHeader(part.name, crc32(data), data.length)
        yield data
        continue
      }
      yield localHeader(part.name, part.crc32, part.size)
      const packed = bytes.subarray(part.dataStart, part.dataStart + part.compressedSize)
      if (part.method === 0) {
        if (packed.length !== part.size) {
          damage = `${part.name} is not the size it says`
          return
        }
        yield packed
        continue
      }
      if (part.method !== 8) {
        damage = `${part.name} is packed in a way workbooks are not (method ${part.method})`
        return
      }
      const inflater = createInflateRaw()
      inflater.end(packed)
      let read = 0
      try {
        for await (const chunk of inflater as AsyncIterable<Buffer>) {
          read += chunk.length
          if (read > part.size) {
            damage = `${part.name} unpacks to more than it says`
            return
          }
          yield chunk
        }
      } catch (error) {
        damage = `${part.name} cannot be unpacked (${(error as Error).message})`
        return
      } finally {
        inflater.destroy()
      }
      if (read !== part.size) {
        damage = `${part.name} unpacks to less than it says`
        return
      }
    }
  }
  // Said as soon as it is known: a reader given a stream cut short may wait for the rest for good.
  async function* files(): AsyncGenerator<Uint8Array> {
    yield* unpacked()
    if (damage !== undefined) said()
  }
  return {
    stream: Readable.from(files(), { objectMode: false }),
    damage: () => damage,
    damaged,
  }
}

/** A local file header of a stored file whose sizes are known (no data descriptor follows). */
function localHeader(name: string, crc: number, size: number): Uint8Array {
  const nameBytes = new TextEncoder().encode(name)
  const header = new Uint8Array(30 + nameBytes.length)
  const view = new DataView(header.buffer)
  view.setUint32(0, 0x04034b50, true)
  view.setUint16(4, 20, true) // version needed: 2.0
  view.setUint16(6, 0x0800, true) // the name is UTF-8
  view.setUint16(8, 0, true) // stored
  view.setUint32(14, crc, true)
  view.setUint32(18, size, true)
  view.setUint32(22, size, true)
  view.setUint16(26, nameBytes.length, true)
  header.set(nameBytes, 30)
  return header
}
