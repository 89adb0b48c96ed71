import { BoqError } from '../model/boq-error.ts'

export type Detected = { format: 'dwg'; version: string } | { format: 'dxf' }

/** DWG versions LibreDWG reads: R11/R12 (partly) and R13 to 2018 (the newest DWG format). */
const READABLE = new Set([
  'AC1009',
  'AC1012',
  'AC1014',
  'AC1015',
  'AC1018',
  'AC1021',
  'AC1024',
  'AC1027',
  'AC1032',
])
const OLDER = /^(AC1\.[0-9]{2}|AC2\.[0-9]{2}|AC100[0-8]|MC0\.0)/

function ascii(bytes: Uint8Array, start: number, end: number): string {
  let out = ''
  for (let i = start; i < Math.min(end, bytes.length); i++) out += String.fromCharCode(bytes[i])
  return out
}

function looksLikeDxf(bytes: Uint8Array): boolean {
  if (ascii(bytes, 0, 18) === 'AutoCAD Binary DXF') return true
  // ASCII DXF: group code 0 then SECTION, or a 999 comment first; leading blanks allowed.
  const head = ascii(bytes, 0, 512)
    .replace(/^\uFEFF/, '')
    .trimStart()
  return /^0\s*\r?\n\s*SECTION\s*\r?\n/.test(head) || /^999\s*\r?\n/.test(head)
}

function guessKind(bytes: Uint8Array): string {
  const head = ascii(bytes, 0, 8)
  if (head.startsWith('%PDF')) return 'it looks like a PDF document'
  if (head.startsWith('PK\u0003\u0004')) return 'it looks like a ZIP archive or an Office document'
  if (head.startsWith('\u0089PNG')) return 'it looks like a PNG image'
  if (head.startsWith('\u00ff\u00d8\u00ff')) return 'it looks like a JPEG image'
  return 'its content is not a drawing'
}

/**
 * What the bytes are, from their content (not the file name). Throws BoqError when unreadable:
 * the file name only says what the file was meant to be (`.dxf`: not a DXF file; else not a DWG
 * file).
 */
export function detect(bytes: Uint8Array, fileName = ''): Detected {
  const meant = /\.dxf$/i.test(fileName.trim()) ? 'DXF' : 'DWG'
  if (bytes.length === 0) throw new BoqError('not-dwg', `Not a ${meant} file (the file is empty).`)
  const magic = ascii(bytes, 0, 6)
  if (/^AC10[0-9]{2}$/.test(magic) || OLDER.test(magic)) {
    if (READABLE.has(magic)) {
      if (bytes.length < 128) {
        throw new BoqError('corrupt', `Truncated or corrupt (only ${bytes.length} bytes).`)
      }
      return { format: 'dwg', version: magic }
    }
    if (OLDER.test(magic)) {
      throw new BoqError(
        'unsupported',
        `Unsupported DWG version ${magic}: releases older than R11 cannot be read.`,
      )
    }
    throw new BoqError(
      'unsupported',
      `Unsupported DWG version ${magic}: the reader knows R11 to 2018 (AC1009–AC1032).`,
    )
  }
  if (looksLikeDxf(bytes)) return { format: 'dxf' }
  throw new BoqError('not-dwg', `Not a ${meant} file (${guessKind(bytes)}).`)
}
