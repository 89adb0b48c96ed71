import type { Watch } from '#contract/watches.ts'
import { folderJson } from '../jobs/job-json.ts'
import type { WatchRecord } from './store/types.ts'

/** Where the person allows BOQ to act for them while away (answers the authorize URL). */
export const CONSENT_URL = '/api/aps/auth/login?for=watches'

/**
 * The watch as the API answers it: no owner id nor hook; the folder's parts or null; how many
 * versions wait; where to allow access again when it is paused for want of it (Autodesk), not
 * when it waits for its folder or for its owner to end it (its record is damaged).
 */
export function toWatchJson(
  watch: WatchRecord,
  waiting: number,
  options: { askConsent: boolean },
): Watch {
  return {
    id: watch.id,
    projectId: watch.projectId,
    fileFolderId: watch.fileFolderId,
    folder: folderJson(watch.folder),
    units: watch.units ? { ...watch.units } : null,
    createdAt: watch.createdAt,
    state: watch.state,
    pausedReason: watch.state === 'paused' ? (watch.pausedReason ?? null) : null,
    waiting,
    consentUrl:
      watch.state === 'paused' &&
      watch.pausedFor !== 'folder' &&
      watch.pausedFor !== 'record' &&
      options.askConsent
        ? CONSENT_URL
        : null,
  }
}
