import { afterEach, describe, expect, it } from 'vitest'
import { formatDateTime } from './format-date'

describe('formatDateTime', () => {
  const tz = process.env.TZ
  afterEach(() => {
    process.env.TZ = tz
  })

  it('writes YYYY-MM-DD HH:mm:ss in the browser time zone', () => {
    process.env.TZ = 'UTC'
    expect(formatDateTime('2024-12-31T23:59:58Z')).toBe('2024-12-31 23:59:58')
    process.env.TZ = 'Europe/Vilnius'
    expect(formatDateTime('2024-12-31T23:59:58Z')).toBe('2025-01-01 01:59:58')
  })

  it('leaves a value that is not a date as it is', () => {
    expect(formatDateTime('')).toBe('')
    expect(formatDateTime('soon')).toBe('soon')
  })
})
