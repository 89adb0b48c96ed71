import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { listenToGestures } from './geometry-gestures'
import { wheelZoom } from './move-picture'

describe('gestures on the view', () => {
  let surface: HTMLElement
  let stop: () => void
  let panning: boolean
  const panBy = vi.fn()
  const zoomAt = vi.fn()

  beforeEach(() => {
    surface = document.createElement('div')
    document.body.append(surface)
    panning = true
    panBy.mockReset()
    zoomAt.mockReset()
    stop = listenToGestures(surface, { panning: () => panning, panBy, zoomAt })
  })

  afterEach(() => {
    stop()
    surface.remove()
  })

  const pointer = (type: string, pointerId: number, clientX: number, clientY: number) =>
    surface.dispatchEvent(
      new PointerEvent(type, { pointerId, clientX, clientY, button: 0, pointerType: 'touch' }),
    )

  it('pans with a drag', () => {
    pointer('pointerdown', 1, 10, 10)
    pointer('pointermove', 1, 15, 20)
    pointer('pointermove', 1, 12, 20)
    pointer('pointerup', 1, 12, 20)
    pointer('pointermove', 1, 50, 50)
    expect(panBy.mock.calls).toEqual([
      [5, 10],
      [-3, 0],
    ])
  })

  it('leaves a drag to the moving picture while panning is off', () => {
    panning = false
    pointer('pointerdown', 1, 10, 10)
    pointer('pointermove', 1, 15, 20)
    expect(panBy).not.toHaveBeenCalled()
  })

  it('zooms with a pinch about the fingers', () => {
    pointer('pointerdown', 1, 100, 100)
    pointer('pointerdown', 2, 200, 100)
    pointer('pointermove', 2, 300, 100)
    expect(zoomAt).toHaveBeenCalledWith(2, 200, 100)
    expect(panBy).toHaveBeenCalledWith(50, 0)
  })

  it('zooms with the wheel about the pointer, and keeps the page from scrolling', () => {
    const wheel = new WheelEvent('wheel', {
      deltaY: 100,
      clientX: 30,
      clientY: 40,
      cancelable: true,
    })
    surface.dispatchEvent(wheel)
    expect(wheel.defaultPrevented).toBe(true)
    expect(zoomAt).toHaveBeenCalledWith(wheelZoom(wheel), 30, 40)
    expect(wheelZoom(wheel)).toBeLessThan(1)
  })

  it('stops listening', () => {
    stop()
    pointer('pointerdown', 1, 10, 10)
    pointer('pointermove', 1, 15, 20)
    expect(panBy).not.toHaveBeenCalled()
  })
})

describe('wheel zoom', () => {
  it('zooms in for the wheel turned up, out for down, as the moving picture does', () => {
    expect(wheelZoom({ deltaY: -100, deltaMode: 0, ctrlKey: false })).toBeCloseTo(1 / 0.95 ** 5)
    expect(wheelZoom({ deltaY: 100, deltaMode: 0, ctrlKey: false })).toBeCloseTo(0.95 ** 5)
    expect(wheelZoom({ deltaY: 1, deltaMode: 1, ctrlKey: false })).toBeCloseTo(
      wheelZoom({ deltaY: 16, deltaMode: 0, ctrlKey: false }),
    )
    expect(wheelZoom({ deltaY: 10, deltaMode: 0, ctrlKey: true })).toBeCloseTo(0.95 ** 5)
  })
})
