import type { Locator, Page } from 'playwright-core'

/** One pixel of the drawing, where it is in the drawing's box and its colour. */
export interface Pixel {
  x: number
  y: number
  r: number
  g: number
  b: number
}

/**
 * How long a reading of the pixels may keep changing, for expect.poll: each reading takes a
 * screenshot and reads every pixel of it, over a second on a busy machine, more than expect.poll's
 * own second.
 */
export const PIXELS_SETTLE = { timeout: 20_000 }

/**
 * The drawing as a person sees it: a screenshot of `drawing`, decoded by the browser itself (no
 * PNG library here), each pixel with its place in the drawing's box.
 */
export async function drawingPixels(page: Page, drawing: Locator): Promise<Pixel[]> {
  const png = (await drawing.screenshot()).toString('base64')
  const { width, rgba } = await page.evaluate(async (base64) => {
    const bytes = Uint8Array.from(atob(base64), (ch) => ch.charCodeAt(0))
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }))
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height)
    const context = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D
    context.drawImage(bitmap, 0, 0)
    const { data } = context.getImageData(0, 0, bitmap.width, bitmap.height)
    let text = ''
    for (let i = 0; i < data.length; i += 0x8000) {
      text += String.fromCharCode(...data.subarray(i, i + 0x8000))
    }
    return { width: bitmap.width, height: bitmap.height, rgba: btoa(text) }
  }, png)
  const data = Buffer.from(rgba, 'base64')
  const pixels: Pixel[] = []
  for (let i = 0; i < data.length; i += 4) {
    const x = (i / 4) % width
    const y = Math.floor(i / 4 / width)
    pixels.push({ x, y, r: data[i] ?? 0, g: data[i + 1] ?? 0, b: data[i + 2] ?? 0 })
  }
  return pixels
}

/** Pixels that touch (within `gap` pixels of one another), with where they lie. */
export interface PixelGroup {
  pixels: number
  /** The middle of the group's box. */
  x: number
  y: number
  width: number
  height: number
}

/**
 * The groups the pixels form, each pixel joined to those within `gap` pixels of it: a ring drawn
 * around each of several references gives one group each.
 */
export function pixelGroups(pixels: readonly Pixel[], gap = 2): PixelGroup[] {
  if (pixels.length === 0) return []
  // A grid of the pixels still to group, one flag a place (a screenshot's worth at most).
  const width = Math.max(...pixels.map((p) => p.x)) + 1
  const height = Math.max(...pixels.map((p) => p.y)) + 1
  const left = new Uint8Array(width * height)
  for (const { x, y } of pixels) left[y * width + x] = 1
  const groups: PixelGroup[] = []
  for (const start of pixels) {
    if (!left[start.y * width + start.x]) continue
    left[start.y * width + start.x] = 0
    const queue = [start.x, start.y]
    const box = { minX: start.x, maxX: start.x, minY: start.y, maxY: start.y }
    let count = 0
    while (queue.length > 0) {
      const y = queue.pop() as number
      const x = queue.pop() as number
      count++
      box.minX = Math.min(box.minX, x)
      box.maxX = Math.max(box.maxX, x)
      box.minY = Math.min(box.minY, y)
      box.maxY = Math.max(box.maxY, y)
      for (let ny = Math.max(0, y - gap); ny <= Math.min(height - 1, y + gap); ny++) {
        for (let nx = Math.max(0, x - gap); nx <= Math.min(width - 1, x + gap); nx++) {
          if (!left[ny * width + nx]) continue
          left[ny * width + nx] = 0
          queue.push(nx, ny)
        }
      }
    }
    groups.push({
      pixels: count,
      x: (box.minX + box.maxX) / 2,
      y: (box.minY + box.maxY) / 2,
      width: box.maxX - box.minX + 1,
      height: box.maxY - box.minY + 1,
    })
  }
  return groups
}
