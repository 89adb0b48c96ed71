import { BusyError } from '../errors.ts'

/**
 * How many drawings may stream into the local cloud at once (its uploads). Each holds little
 * memory, since the bytes go to disk as they arrive, but each holds a disk and a socket busy for as
 * long as its client takes: past this, 503.
 */
export const MAX_TRANSFERS = 4
/** What a refused transfer is told to wait before trying again. */
const RETRY_AFTER_S = 5

export interface TransferSlot {
  /** Gives the slot back; once only, however many times it is called. */
  release(): void
}

export interface TransferSlots {
  /** A slot, or BusyError 503 (with Retry-After) when every slot is taken. */
  take(): TransferSlot
  /** Slots taken now. */
  readonly inUse: number
}

/** `max` slots for transfers of one kind, `what` naming them in the refusal ("uploads"). */
export function transferSlots(what: string, max = MAX_TRANSFERS): TransferSlots {
  let inUse = 0
  return {
    take() {
      if (inUse >= max) {
        throw new BusyError(
          503,
          `The server is busy with ${max} ${what} already; try again in a few seconds.`,
          RETRY_AFTER_S,
        )
      }
      inUse++
      let held = true
      return {
        release() {
          if (!held) return
          held = false
          inUse--
        },
      }
    },
    get inUse() {
      return inUse
    },
  }
}
