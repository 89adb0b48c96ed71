import type { QueryClient } from '@tanstack/react-query'

/** One QueryClient for the page's life, created the first time a protected route needs it. */
export function queryClientLoader(): () => Promise<QueryClient> {
  let client: Promise<QueryClient> | undefined
  return () => {
    client ??= import('./query-client').then((m) => m.createQueryClient())
    return client
  }
}
