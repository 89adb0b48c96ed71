import type { ApsHooks } from '../../cloud/aps/hooks.ts'
import type { WatchSource } from '../source.ts'

/**
 * Autodesk tells of new versions itself: a watch is a webhook on its folder (which covers the
 * subfolders), made and deleted with the owner's token. Nothing already there is recorded: only
 * versions added after the hook are ever delivered.
 */
export function apsWatchSource(hooks: Pick<ApsHooks, 'create' | 'remove'>): WatchSource {
  return {
    async begin(ctx, watch) {
      return { hookId: await hooks.create(ctx, watch.fileFolderId) }
    },
    async end(ctx, watch) {
      if (watch.hookId) await hooks.remove(ctx, watch.hookId)
    },
  }
}
