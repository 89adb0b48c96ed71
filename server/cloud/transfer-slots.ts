import { BusyError } from '../errors.ts'

/**
 * How many drawings may stream into the local cloud at once (its uploads). Each holds little
 * memory, since the bytes go to disk as they arrive, but each holds a disk and a socket busy for as
 * long as its client takes: past this, 503.
 */
export const MAX_TRANSFERS = 4
/** How many of them one person may hold, so that nobody takes them all: past this, 429. */
export const MAX_TRANSFERS_PER_PERSON = 2
/** What a refused transfer is told to wait before trying again. */
const RETRY_AFTER_S = 5

export interface TransferSlot {
  /** Gives the slot back; once only, however many times it is called. */
  release(): void
}

export interface TransferSlots {
  /**
   * A slot for the person `userId`, or BusyError: 429 when they hold `perPerson` already, 503
   * (both with Retry-After) when every slot is taken.
   */
  take(userId: string): TransferSlot
  /** Slots taken now. */
  readonly inUse: number
}

/** `max` slots for transfers of one kind, `what` naming them in the refusal ("uploads"). */
export function transferSlots(
  what: string,
  max = MAX_TRANSFERS,
  perPerson = MAX_TRANSFERS_PER_PERSON,
): TransferSlots {
  let inUse = 0
  const held = new Map<string, number>()
  return {
    take(userId) {
      const theirs = held.get(userId) ?? 0
      if (theirs >= perPerson) {
        throw new BusyError(
          429,
          `You already have ${perPerson} ${what} under way, as many as one person may at once; try again when one has finished.`,
          RETRY_AFTER_S,
        )
      }
      if (inUse >= max) {
        throw new BusyError(
          503,
          `The server is busy with ${max} ${what} already; try again in a few seconds.`,
          RETRY_AFTER_S,
        )
      }
      inUse++
      held.set(userId, theirs + 1)
      let holding = true
      return {
        release() {
          if (!holding) return
          holding = false
          inUse--
          const left = (held.get(userId) ?? 1) - 1
          if (left === 0) held.delete(userId)
          else held.set(userId, left)
        },
      }
    },
    get inUse() {
      return inUse
    },
  }
}
