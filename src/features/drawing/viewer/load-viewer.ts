import type { CreateDrawingViewer } from './drawing-viewer'

/**
 * The renderer, loaded on first use: three.js, the CAD viewer and its DWG reader are a separate
 * chunk (and a worker with its WebAssembly) that only the drawing view fetches.
 */
export async function loadDrawingViewer(): Promise<CreateDrawingViewer> {
  const { createCadViewer } = await import('./cad-viewer')
  return createCadViewer
}
