import { describe, expect, it } from 'vitest'
import { APP_PATH_MAX_LENGTH, appPath } from './app-path'

describe('appPath', () => {
  it('keeps a page of this app, with its search and hash', () => {
    expect(appPath('/jobs/j-1')).toBe('/jobs/j-1')
    expect(appPath('/jobs/j-1?tab=priced#top')).toBe('/jobs/j-1?tab=priced#top')
    expect(appPath('/')).toBe('/')
    expect(appPath('/a/./b/../c')).toBe('/a/c')
  })

  it('refuses another site, an API path, odd characters and text too long', () => {
    for (const value of [
      undefined,
      '',
      'jobs/j-1',
      '//evil.example',
      '///evil.example',
      '/\\evil.example',
      '/x\\y',
      'https://x',
      'javascript:alert(1)',
      '/.//evil.example',
      '/..//evil.example',
      '/%2e%2e//evil.example',
      '/\t/evil.example',
      '/jobs\n/x',
      '/api/aps/auth/logout',
      '/API/boq/jobs',
      '/api',
      '/x/../api/aps/auth/logout',
      '/%61pi/aps/auth/logout',
      '/%E0%A4%A',
      `/${'a'.repeat(APP_PATH_MAX_LENGTH)}`,
    ]) {
      expect(appPath(value), JSON.stringify(value)).toBeUndefined()
    }
  })

  it('keeps paths that only look like the refused ones', () => {
    expect(appPath('/apiary')).toBe('/apiary')
    expect(appPath('/jobs/https://x')).toBe('/jobs/https://x')
  })
})
