import type { Stats } from 'node:fs'
import { SETTLE_MS } from '../../config.ts'

/** Files remembered as first seen; past this the oldest are forgotten (and timed again). */
const REMEMBERED = 200_000

export interface SettleOptions {
  /** How long a file must stay the same; 0 takes every file as whole at once. */
  settleMs?: number
  /** The time now, in ms since the epoch (a clock of its own in tests). */
  now?: () => number
}

export interface Settling {
  /**
   * Whether the file at `itemAbs`, as `info` says it is now, has stopped changing: its
   * modification time is `settleMs` old, or this process has seen the same size and modification
   * time for that long (a modification time ahead of this clock settles so too).
   */
  settled(itemAbs: string, info: Stats): boolean
  /** Forgets what was seen of the file (it is recorded now). */
  forget(itemAbs: string): void
}

export function createSettling(options: SettleOptions = {}): Settling {
  const settleMs = options.settleMs ?? SETTLE_MS
  const now = options.now ?? Date.now
  /** itemAbs → size and mtime when first seen so, and when. */
  const firstSeen = new Map<string, { signature: string; at: number }>()
  return {
    settled(itemAbs, info) {
      if (settleMs <= 0) return true
      const time = now()
      if (time - info.mtimeMs >= settleMs) return true
      const signature = `${info.size}:${info.mtimeMs}`
      const seen = firstSeen.get(itemAbs)
      if (seen?.signature === signature) return time - seen.at >= settleMs
      firstSeen.delete(itemAbs)
      firstSeen.set(itemAbs, { signature, at: time })
      if (firstSeen.size > REMEMBERED) firstSeen.delete(firstSeen.keys().next().value as string)
      return false
    },
    forget(itemAbs) {
      firstSeen.delete(itemAbs)
    },
  }
}
