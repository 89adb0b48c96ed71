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
 * The drawing as a person sees it: a screenshot of `drawing`, decoded by the browser itself (no
 * PNG library here), each pixel with its place in the drawing's box. The viewer's own axes in the
 * bottom left corner are left out: they are not the drawing's.
 */
export async function drawingPixels(page: Page, drawing: Locator): Promise<Pixel[]> {
  const png = (await drawing.screenshot()).toString('base64')
  const { width, height, rgba } = await page.evaluate(async (base64) => {
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
    if (x < 120 && y > height - 120) continue
    pixels.push({ x, y, r: data[i] ?? 0, g: data[i + 1] ?? 0, b: data[i + 2] ?? 0 })
  }
  return pixels
}
