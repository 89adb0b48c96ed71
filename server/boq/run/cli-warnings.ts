/** Warnings printed per drawing; the rest are counted on one line (all of them are in the bill). */
export const SHOWN_WARNINGS = 10

/**
 * A bill's warnings as terminal lines: `<file>: warning: <text>`, the first ten, then how many
 * more. A warning quotes names from the drawing, which may hold line breaks or terminal escapes:
 * control characters become spaces, so each warning stays one harmless line.
 */
export function warningLines(file: string, warnings: readonly string[]): string[] {
  const lines = warnings
    .slice(0, SHOWN_WARNINGS)
    .map((warning) => `${file}: warning: ${oneLine(warning)}`)
  const rest = warnings.length - SHOWN_WARNINGS
  if (rest > 0) lines.push(`${file}: … and ${rest} more warning${rest === 1 ? '' : 's'}`)
  return lines
}

function oneLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
  return text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim()
}
