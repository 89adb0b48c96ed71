// Stands in for ky's retry timing (Retry-After and RateLimit headers) in the build
// (vite.config.ts): the HTTP client never retries, TanStack Query does (src/lib/api-client.ts), so
// ky never reads them (about 0.8 kB gzip).
import { leftOut } from '../left-out'

export function getRetryTimingHeader(): never {
  return leftOut("ky's retries")
}

export const calculateRetryTimingDelay = getRetryTimingHeader
