// Stands in for TanStack Query's infinite-query paging in the build (vite.config.ts): the app has
// no infinite queries (every list comes whole), so no query ever pages (about 0.45 kB gzip).
import { leftOut } from '../left-out'

export function infiniteQueryBehavior(): never {
  return leftOut('TanStack Query infinite queries')
}

export const hasNextPage = infiniteQueryBehavior
export const hasPreviousPage = infiniteQueryBehavior
