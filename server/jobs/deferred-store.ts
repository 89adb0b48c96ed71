import type { JobStore } from './types.ts'

/**
 * A JobStore usable at once whose calls wait for the real one to open (createApp is synchronous;
 * opening the embedded store reads the disk). A store that failed to open fails every call.
 */
export function deferredStore(opening: Promise<JobStore>): JobStore {
  const call =
    <K extends keyof JobStore>(name: K) =>
    async (...args: Parameters<JobStore[K]>) => {
      const store = await opening
      return (store[name] as (...a: Parameters<JobStore[K]>) => unknown)(...args)
    }
  return {
    submit: call('submit') as JobStore['submit'],
    get: call('get') as JobStore['get'],
    listByUser: call('listByUser') as JobStore['listByUser'],
    claim: call('claim') as JobStore['claim'],
    setProgress: call('setProgress') as JobStore['setProgress'],
    setFileVersionNumber: call('setFileVersionNumber') as JobStore['setFileVersionNumber'],
    succeed: call('succeed') as JobStore['succeed'],
    fail: call('fail') as JobStore['fail'],
    release: call('release') as JobStore['release'],
    readResult: call('readResult') as JobStore['readResult'],
    onQueued(listener) {
      let unsubscribe: (() => void) | undefined
      let cancelled = false
      opening.then(
        (store) => {
          if (!cancelled) unsubscribe = store.onQueued(listener)
        },
        () => {},
      )
      return () => {
        cancelled = true
        unsubscribe?.()
      }
    },
    async close() {
      await (await opening.catch(() => undefined))?.close()
    },
  }
}
