/** What every editor row has: an id that keeps its identity while rows move. */
export type RowWithId = { id: number }

let lastId = 0

/** A new row id, never given before in this page's life. */
export function nextRowId(): number {
  lastId += 1
  return lastId
}

/**
 * The server's refusal split by the rows it names ("row 3: unknown match 'volume'"), keyed by
 * row number (1-based); what names no row comes under 0.
 */
export function rowErrors(text: string): Record<number, string> {
  const errors: Record<number, string> = {}
  for (const line of text.split('\n')) {
    const trimmed = line.trim()
    if (trimmed === '') continue
    const named = /^row (\d+)\s*[:,-]\s*(.*)$/i.exec(trimmed)
    const at = named ? Number(named[1]) : 0
    const message = named ? (named[2] ?? '') : trimmed
    errors[at] = errors[at] ? `${errors[at]} ${message}` : message
  }
  return errors
}
