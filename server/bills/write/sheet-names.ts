/** The longest name a spreadsheet gives a sheet. */
const MAX_SHEET_NAME = 31

/**
 * A sheet name for each title, in order: without the characters a sheet name cannot hold, cut
 * to 31 characters, and unlike every other (nor any of `taken`, case aside) by a number after it.
 */
export function sheetNames(titles: readonly string[], taken: readonly string[]): string[] {
  const used = new Set(taken.map((name) => name.toLowerCase()))
  return titles.map((title) => {
    const clean =
      title
        .replace(/[[\]:*?/\\\p{Cc}]/gu, ' ')
        .replace(/^'+|'+$/g, '')
        .trim() || 'Drawing'
    for (let n = 1; ; n++) {
      const suffix = n === 1 ? '' : ` (${n})`
      const name = `${clean.slice(0, MAX_SHEET_NAME - suffix.length).trimEnd()}${suffix}`
      if (!used.has(name.toLowerCase())) {
        used.add(name.toLowerCase())
        return name
      }
    }
  })
}
