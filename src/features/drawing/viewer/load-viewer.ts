import type { DrawnGeometry } from '#contract/drawing-geometry.ts'
import type { CreateDrawingViewer } from './drawing-viewer'

/**
 * The renderer of a job's geometry, loaded on first use: three.js and the drawing code are a
 * separate chunk that only the drawing view fetches.
 */
export async function loadGeometryViewer(): Promise<CreateDrawingViewer<DrawnGeometry>> {
  const { createGeometryViewer } = await import('./geometry-viewer')
  return createGeometryViewer
}
