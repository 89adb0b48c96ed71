import { describe, expect, it } from 'vitest'
import { newWatchRecord, pausedAsDamaged } from './store/watch-record.ts'
import { CONSENT_URL, toWatchJson } from './watch-json.ts'

const watch = newWatchRecord('w1', {
  userId: 'ann',
  projectId: 'p1',
  fileFolderId: 'f1',
  state: 'paused',
  pausedReason: 'Allow BOQ.',
  pausedFor: 'access',
})

describe('a watch as the API answers it', () => {
  it('offers to allow access again only when that is what the pause waits for', () => {
    const askConsent = { askConsent: true }
    expect(toWatchJson(watch, 0, askConsent).consentUrl).toBe(CONSENT_URL)
    expect(toWatchJson({ ...watch, pausedFor: 'folder' }, 0, askConsent).consentUrl).toBeNull()
    // Its record damaged: allowing again would not help; it says to stop and watch again.
    const damaged = toWatchJson(pausedAsDamaged(watch), 0, askConsent)
    expect(damaged).toMatchObject({ state: 'paused', consentUrl: null })
    expect(damaged.pausedReason).toMatch(/Stop watching, then watch the folder again/)
  })
})
