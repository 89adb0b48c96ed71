const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** Whether `id` can name a row: BOQ's ids are uuid columns, which refuse any other text. */
export function isUuid(id: string): boolean {
  return UUID_PATTERN.test(id)
}
