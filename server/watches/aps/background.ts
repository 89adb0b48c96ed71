import { log } from '../../log.ts'

/**
 * Work started after a request was answered (an Autodesk event handled, watches catching up):
 * closing waits for it, so none of it runs on into a closed store, and a failure is logged rather
 * than left unhandled.
 */
export interface Background {
  /** Runs `work` on its own; its failure is logged as `what`. */
  run(what: string, work: () => Promise<unknown>): void
  /** Resolves once everything started so far, and anything started meanwhile, has ended. */
  settled(): Promise<void>
}

export function background(): Background {
  const running = new Set<Promise<unknown>>()
  return {
    run(what, work) {
      const done = Promise.resolve()
        .then(work)
        .catch((error: unknown) => log.error(`watches: ${what}`, { err: error }))
        .finally(() => running.delete(done))
      running.add(done)
    },
    async settled() {
      while (running.size > 0) await Promise.all(running)
    },
  }
}
