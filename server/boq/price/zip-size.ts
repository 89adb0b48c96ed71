/**
 * What a ZIP (an XLSX workbook) unpacks to, from its central directory, before anything unpacks
 * it: a 1 MB workbook may inflate a thousandfold. Null when the bytes are not a readable ZIP.
 */
export function unpackedSize(bytes: Uint8Array): number | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  // The end record is 22 bytes, after which a comment of at most 65,535 bytes may follow.
  const lowest = Math.max(0, bytes.length - 22 - 0xffff)
  let end = -1
  for (let at = bytes.length - 22; at >= lowest; at--) {
    if (view.getUint32(at, true) === 0x06054b50) {
      end = at
      break
    }
  }
  if (end < 0) return null
  const entries = view.getUint16(end + 10, true)
  let at = view.getUint32(end + 16, true)
  let total = 0
  for (let i = 0; i < entries; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) return null
    const size = view.getUint32(at + 24, true)
    // ZIP64 sizes: no spreadsheet of rules needs them.
    if (size === 0xffffffff) return Infinity
    total += size
    at +=
      46 +
      view.getUint16(at + 28, true) +
      view.getUint16(at + 30, true) +
      view.getUint16(at + 32, true)
  }
  return total
}
