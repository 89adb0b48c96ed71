import { listeners } from '../lib/listeners.ts'

/** Who is told that a job was queued (the runner, so idle workers start without polling). */
export const queueListeners = (onError: (error: unknown) => void) => listeners(onError)
