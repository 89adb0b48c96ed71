import { QueryClient } from '@tanstack/react-query'
import { httpStatus } from '../lib/http-errors'

/**
 * Query owns the retries (ky's are off): a failed read is tried again twice,
 * except for answers that will not change (4xx). Mutations are never retried.
 */
export function createQueryClient(options: { retry?: boolean } = {}): QueryClient {
  const retry = options.retry ?? true
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: retry
          ? (count, error) => {
              const status = httpStatus(error)
              return count < 2 && (status === undefined || status >= 500)
            }
          : false,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  })
}
