import { afterEach, describe, expect, it, vi } from 'vitest'
import { withoutAntialias } from './without-antialias'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('withoutAntialias', () => {
  it('asks WebGL contexts made during the work for no antialiasing, and leaves the rest as asked', async () => {
    const getContext = vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null)
    const canvas = document.createElement('canvas')
    await withoutAntialias(() => {
      canvas.getContext('webgl2', { antialias: true, alpha: true })
      canvas.getContext('2d', { alpha: false })
    })
    expect(getContext.mock.calls).toEqual([
      ['webgl2', { antialias: false, alpha: true }],
      ['2d', { alpha: false }],
    ])
  })

  it('puts getContext back afterwards, also when the work fails', async () => {
    const getContext = HTMLCanvasElement.prototype.getContext
    await expect(
      withoutAntialias(() => {
        throw new Error('no WebGL')
      }),
    ).rejects.toThrow('no WebGL')
    expect(HTMLCanvasElement.prototype.getContext).toBe(getContext)
  })
})
