/** How one kind of work shares the pool's threads. */
export type LaneOptions = {
  /** Tasks of this lane running at once: the threads it may hold. */
  threads: number
  /** Tasks waiting beyond the running ones before `busy()` is thrown (default: no bound). */
  maxWaiting?: number
  /** What a task past the lane's bounded wait fails with. */
  busy?: () => Error
  /**
   * The lane reads drawings: its tasks go to threads whose reader is ready (waiting for the
   * handshake of one still putting it back), and threads started for it make their reader first.
   */
  warm?: boolean
}

export type Lane = Required<Pick<LaneOptions, 'threads' | 'warm'>> & {
  name: string
  maxWaiting: number
  busy: () => Error
  running: number
  /** Tasks waiting for a turn, in order: each is handed its turn (or refused). */
  waiting: { go: () => void; refuse: (error: unknown) => void }[]
}

export function makeLanes(options: Record<string, LaneOptions>): Map<string, Lane> {
  const lanes = new Map<string, Lane>()
  for (const [name, lane] of Object.entries(options)) {
    lanes.set(name, {
      name,
      threads: Math.max(1, Math.floor(lane.threads)),
      warm: lane.warm ?? false,
      maxWaiting: lane.maxWaiting ?? Number.POSITIVE_INFINITY,
      busy: lane.busy ?? (() => new Error(`The ${name} lane is full.`)),
      running: 0,
      waiting: [],
    })
  }
  return lanes
}

/**
 * Waits for a turn in the lane: at once while fewer than its threads run, else behind the others
 * (ahead of them when `first`), refused with `busy()` past the bounded wait. An aborted wait
 * leaves the line with the signal's reason.
 */
export function turnIn(lane: Lane, first: boolean, signal?: AbortSignal): Promise<void> {
  if (lane.running < lane.threads) {
    lane.running++
    return Promise.resolve()
  }
  if (lane.waiting.length >= lane.maxWaiting) return Promise.reject(lane.busy())
  return new Promise<void>((resolve, reject) => {
    const entry = {
      go: () => {
        signal?.removeEventListener('abort', leave)
        resolve()
      },
      refuse: (error: unknown) => {
        signal?.removeEventListener('abort', leave)
        reject(error)
      },
    }
    const leave = () => {
      const at = lane.waiting.indexOf(entry)
      if (at >= 0) lane.waiting.splice(at, 1)
      reject(signal?.reason)
    }
    signal?.addEventListener('abort', leave, { once: true })
    if (first) lane.waiting.unshift(entry)
    else lane.waiting.push(entry)
  })
}

/** A task of the lane has ended: its turn goes to the next waiting, else the lane runs one less. */
export function turnEnded(lane: Lane): void {
  const next = lane.waiting.shift()
  if (next) next.go()
  else lane.running--
}
