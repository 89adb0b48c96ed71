import { BusyError } from '../errors.ts'

/**
 * At most `max` heavy requests (change bills, pricings, tables read) running at once per user:
 * one more is a 429 with Retry-After, so that one user's many change bills wait on their own
 * side, never in everyone's queue. A request's place is given back however it ends (a pricing
 * stopped past its time budget too).
 */
export interface PerUserLimit {
  one<T>(userId: string, work: () => Promise<T>): Promise<T>
}

const RETRY_AFTER_S = 2

export function perUserLimit(max: number): PerUserLimit {
  const running = new Map<string, number>()
  return {
    async one(userId, work) {
      const now = running.get(userId) ?? 0
      if (now >= max) {
        throw new BusyError(
          429,
          `You already have ${max === 1 ? 'a change bill or a pricing' : `${max} change bills or pricings`} running (a table being read counts as one); try again when ${max === 1 ? 'it has' : 'one has'} finished.`,
          RETRY_AFTER_S,
        )
      }
      running.set(userId, now + 1)
      try {
        return await work()
      } finally {
        const left = (running.get(userId) ?? 1) - 1
        if (left === 0) running.delete(userId)
        else running.set(userId, left)
      }
    },
  }
}
