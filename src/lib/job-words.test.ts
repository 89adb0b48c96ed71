import { describe, expect, it } from 'vitest'
import { succeededJob } from '../testing/fixtures'
import { changedLinesWords } from './job-words'

/** A finished job's result compared with version `earlier`'s bill, `changed` lines apart. */
function resultOf(changed: number | null | undefined, earlier: number | null | 'none') {
  const result = succeededJob().result as NonNullable<ReturnType<typeof succeededJob>['result']>
  return {
    ...result,
    comparedWith:
      earlier === 'none' ? null : { jobId: 'j0', fileName: 'plan.dwg', versionNumber: earlier },
    changedLines: changed,
  }
}

describe('changedLinesWords', () => {
  it('counts the changed lines since the earlier version', () => {
    expect(changedLinesWords(resultOf(12, 6))).toBe('12 lines changed since version 6')
    expect(changedLinesWords(resultOf(1, 6))).toBe('1 line changed since version 6')
    expect(changedLinesWords(resultOf(0, 6))).toBe('No lines changed since version 6')
  })

  it('says "the earlier bill" when its version is not known', () => {
    expect(changedLinesWords(resultOf(2, null))).toBe('2 lines changed since the earlier bill')
  })

  it('says nothing without a comparison or a count', () => {
    expect(changedLinesWords(resultOf(null, 6))).toBeNull()
    expect(changedLinesWords(resultOf(undefined, 6))).toBeNull()
    expect(changedLinesWords(resultOf(3, 'none'))).toBeNull()
    expect(changedLinesWords(undefined)).toBeNull()
  })
})
