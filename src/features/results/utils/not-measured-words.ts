import { formatCount } from '../../../lib/format-quantity'

// What is not measured is counted two ways, each said with its noun wherever it shows: kinds
// (the rows of the Not measured table, one per type) and the entities of those kinds.

/** `1 kind`, `22 kinds`. */
export function kindsWord(kinds: number): string {
  return kinds === 1 ? '1 kind' : `${formatCount(kinds)} kinds`
}

/** `1 entity`, `33 entities`. */
export function entitiesWord(entities: number): string {
  return entities === 1 ? '1 entity' : `${formatCount(entities)} entities`
}
