import { AppError } from '../errors.ts'

/**
 * The rules for names BOQ writes into a cloud (an uploaded drawing, a BOQ written back beside it):
 * a name a person can read as it is, that is a name and not a path, and that every file system
 * and Autodesk folder accepts.
 */

/** File systems keep at most 255 bytes per name. */
const MAX_NAME_BYTES = 255

/**
 * Control characters (C0, DEL, C1 with U+0085), format characters (the bidi controls U+200E/F,
 * U+202A–E, U+2066–9, U+061C, zero-width characters, U+FEFF, soft hyphen), the line and paragraph
 * separators and lone surrogates: a name holding one can show as another name (U+202E turns
 * "plan\u202Egpj.dwg" into "plandwg.jpg" on screen).
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u
/** Spaces of any width and dots only: nothing to read, and `.`/`..` mean folders. */
const BLANK = /^[\p{Zs}.]*$/u

/** Why `name` cannot be written as a file name, as a sentence ending in a full stop; undefined when it can. */
export function nameProblem(name: string): string | undefined {
  if (typeof name !== 'string' || name.length === 0) return 'The file name is empty.'
  if (/[/\\]/.test(name)) return `"${printable(name)}" is a path: give the file's name only.`
  if (INVISIBLE.test(name)) {
    return `"${printable(name)}" holds control or invisible characters (such as right-to-left marks): rename the file.`
  }
  if (BLANK.test(name)) return `"${name}" is not a file name: it has no letters or digits.`
  if (name.startsWith('.')) return `"${name}" starts with a dot, which hides the file: rename it.`
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) {
    return `The file name is too long (at most ${MAX_NAME_BYTES} bytes): shorten "${name.slice(0, 40)}…".`
  }
  return undefined
}

/** A name a person can read as it is and that is not a path (see nameProblem). */
export function isVisibleName(name: string): boolean {
  return nameProblem(name) === undefined
}

/** Why `name` is not a drawing's name (a visible name ending in exactly `.dwg`); undefined when it is. */
export function drawingNameProblem(name: string): string | undefined {
  const problem = nameProblem(name)
  if (problem) return problem
  // Exactly `.dwg`, lower case, as the app's Extract BOQ button requires.
  if (!name.endsWith('.dwg')) {
    return `Only .dwg drawings are accepted, and the name must end in ".dwg" exactly (lower case): "${name}" does not.`
  }
  if (BLANK.test(name.slice(0, -'.dwg'.length))) {
    return `"${name}" has no name before ".dwg".`
  }
  return undefined
}

export function isDrawingName(name: string): boolean {
  return drawingNameProblem(name) === undefined
}

/** Returns `name` when it can be written as a file name; otherwise throws a 400 with the reason. */
export function checkFileName(name: string): string {
  const problem = nameProblem(name)
  if (problem) throw new AppError(400, problem)
  return name
}

/** Returns `name` when it is a drawing's name; otherwise throws a 400 with the reason. */
export function checkDrawingName(name: string): string {
  const problem = drawingNameProblem(name)
  if (problem) throw new AppError(400, problem)
  return name
}

/** The name as it can be shown in a message: invisible characters as \u{…} escapes. */
export function printable(name: string): string {
  return name.replace(
    new RegExp(INVISIBLE.source, 'gu'),
    (ch) => `\\u{${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}}`,
  )
}
