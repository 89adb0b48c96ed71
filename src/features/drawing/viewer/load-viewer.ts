import type { DrawingGeometry } from '../../../../contract/drawing-geometry'
import type { CreateDrawingViewer } from './drawing-viewer'

/**
 * The renderer of a job's geometry, loaded on first use: three.js and the drawing code are a
 * separate chunk that only the drawing view fetches.
 */
export async function loadGeometryViewer(): Promise<CreateDrawingViewer<DrawingGeometry>> {
  const { createGeometryViewer } = await import('./geometry-viewer')
  return createGeometryViewer
}

/**
 * The renderer of a drawing file (jobs recorded before their geometry was kept), loaded on first
 * use: three.js, the CAD viewer and its DWG reader are a separate chunk (and a worker with its
 * WebAssembly) that only the drawing view fetches.
 */
export async function loadDrawingViewer(): Promise<CreateDrawingViewer> {
  const { createCadViewer } = await import('./cad-viewer')
  return createCadViewer
}
