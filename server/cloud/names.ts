import { AppError } from '../errors.ts'

/**
 * The rules for names BOQ writes into a cloud (an uploaded drawing, a BOQ written back beside it):
 * a name a person can read as it is, that is a name and not a path, and that every file system
 * and Autodesk folder accepts, Windows and shared drives included. Names are checked and written
 * composed (Unicode NFC), so that "é" typed as one character or as "e" and an accent is one name.
 */

/** File systems keep at most 255 bytes per name (UTF-8). */
const MAX_NAME_BYTES = 255
/**
 * What the BOQ's name adds to its drawing's name without ".dwg": `plan.dwg` → `plan BOQ.xlsx`
 * (server/jobs/result-name.ts; the longest of the names written back beside a drawing).
 */
const BOQ_SUFFIX = ' BOQ.xlsx'
/** Names Windows keeps for devices, whatever extensions follow: it cannot make `CON.dwg`. */
const DEVICE = /^(?:CON|PRN|AUX|NUL|COM[1-9]|LPT[1-9])(?:\.|$)/i
/** Characters Windows and shared drives (SMB) refuse in a name, besides `/` and `\`. */
const WINDOWS_REFUSES = /[<>:"|?*]/

/**
 * Control characters (C0, DEL, C1 with U+0085), format characters (the bidi controls U+200E/F,
 * U+202A–E, U+2066–9, U+061C, zero-width characters, U+FEFF, soft hyphen), the line and paragraph
 * separators and lone surrogates: a name holding one can show as another name (U+202E turns
 * "plan\u202Egpj.dwg" into "plandwg.jpg" on screen).
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u
/** Spaces of any width and dots only: nothing to read, and `.`/`..` mean folders. */
const BLANK = /^[\p{Zs}.]*$/u

/** The name as it is written and compared: composed (NFC). */
export function toNfc(name: string): string {
  return name.normalize('NFC')
}

/**
 * Why `name` cannot be written as a file name, as a sentence ending in a full stop; undefined when
 * it can. The name is judged composed (NFC), as it is written.
 */
export function nameProblem(given: string): string | undefined {
  if (typeof given !== 'string' || given.length === 0) return 'The file name is empty.'
  const name = toNfc(given)
  if (/[/\\]/.test(name)) return `"${printable(name)}" is a path: give the file's name only.`
  if (INVISIBLE.test(name)) {
    return `"${printable(name)}" holds control or invisible characters (such as right-to-left marks): rename the file.`
  }
  const refused = WINDOWS_REFUSES.exec(name)?.[0]
  if (refused) {
    return `"${name}" holds "${refused}", which Windows and shared drives refuse in a name (< > : " / \\ | ? *): rename the file.`
  }
  if (BLANK.test(name)) return `"${name}" is not a file name: it has no letters or digits.`
  if (name.startsWith('.')) return `"${name}" starts with a dot, which hides the file: rename it.`
  if (/[.\p{Zs}]$/u.test(name)) {
    const what = name.endsWith('.') ? 'a dot' : 'a space'
    return `"${name}" ends in ${what}, which Windows removes: rename the file.`
  }
  if (DEVICE.test(name)) {
    return `"${name}" is a name Windows keeps for a device (CON, PRN, AUX, NUL, COM1–COM9, LPT1–LPT9, whatever follows the dot): rename the file.`
  }
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) {
    return `The file name is too long (at most ${MAX_NAME_BYTES} bytes): shorten "${name.slice(0, 40)}…".`
  }
  return undefined
}

/** A name a person can read as it is and that is not a path (see nameProblem). */
export function isVisibleName(name: string): boolean {
  return nameProblem(name) === undefined
}

/**
 * Why `name` is not a drawing's name (a visible name ending in exactly `.dwg`, whose BOQ can be
 * written beside it); undefined when it is.
 */
export function drawingNameProblem(given: string): string | undefined {
  const problem = nameProblem(given)
  if (problem) return problem
  const name = toNfc(given)
  // Exactly `.dwg`, lower case, as the app's Extract BOQ button requires.
  if (!name.endsWith('.dwg')) {
    return `Only .dwg drawings are accepted, and the name must end in ".dwg" exactly (lower case): "${name}" does not.`
  }
  const stem = name.slice(0, -'.dwg'.length)
  if (BLANK.test(stem)) {
    return `"${name}" has no name before ".dwg".`
  }
  const boqBytes = Buffer.byteLength(stem + BOQ_SUFFIX)
  if (boqBytes > MAX_NAME_BYTES) {
    const over = boqBytes - MAX_NAME_BYTES
    return `"${stem.slice(0, 40)}….dwg" is too long: its BOQ, "<name>${BOQ_SUFFIX}", would have ${boqBytes} bytes: a file name has at most ${MAX_NAME_BYTES} bytes (UTF-8). Shorten the name by ${over} ${over === 1 ? 'byte' : 'bytes'}.`
  }
  return undefined
}

export function isDrawingName(name: string): boolean {
  return drawingNameProblem(name) === undefined
}

/** Returns `name` composed (NFC) when it can be written as a file name; otherwise throws a 400 with the reason. */
export function checkFileName(name: string): string {
  const problem = nameProblem(name)
  if (problem) throw new AppError(400, problem)
  return toNfc(name)
}

/** Returns `name` composed (NFC) when it is a drawing's name; otherwise throws a 400 with the reason. */
export function checkDrawingName(name: string): string {
  const problem = drawingNameProblem(name)
  if (problem) throw new AppError(400, problem)
  return toNfc(name)
}

/** Whether two names are one name once composed (NFC). */
export function sameName(a: string, b: string): boolean {
  return a === b || toNfc(a) === toNfc(b)
}

/** The name as it can be shown in a message: invisible characters as \u{…} escapes. */
export function printable(name: string): string {
  return name.replace(
    new RegExp(INVISIBLE.source, 'gu'),
    (ch) => `\\u{${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}}`,
  )
}
