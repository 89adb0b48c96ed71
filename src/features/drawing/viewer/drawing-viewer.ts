import type { DrawnGeometry } from '#contract/drawing-geometry.ts'

/**
 * What the drawing view asks of a renderer, drawing from `Source`: geometry-viewer.ts draws the
 * geometry the server built with the job's bill (DrawnGeometry), loaded only when a drawing is
 * shown. Tests give a fake. Handles are the DWG's own, as the bill names them (hex, as DXF writes
 * them).
 */
export interface DrawingViewer<Source = DrawnGeometry> {
  /**
   * Reads the drawing and draws its model space; resolves once it is on screen. Tells
   * `onProgress` how far it has got, in percent, as it goes.
   */
  open(source: Source, onProgress?: (percent: number) => void): Promise<void>
  /**
   * Shows these entities highlighted (a block reference as a whole) and the rest dimmed; an empty
   * list shows the drawing in its layers' colours. Returns the handles found in model space.
   * `ringed`: each also gets a ring of a fixed size on screen, seen at any zoom.
   */
  highlight(handles: readonly string[], options?: HighlightOptions): string[]
  /**
   * Shows added entities in green and removed ones in red (a block reference as a whole) and the
   * rest dimmed, as `highlight` does; both lists empty show the layers' colours. Returns the
   * handles of each list found in model space.
   */
  mark(marks: DrawingMarks): DrawingMarks
  /**
   * Names these entities in the drawing (a zone's name at its outline), in place of the names
   * before; none takes them away. The names move and scale with the view; those whose entity is
   * too small on screen to hold them are left out (geometry-labels.ts says the rule).
   */
  label(labels: readonly DrawingLabel[]): void
  /** Frames these entities, or the whole drawing when none is given or found. */
  zoomToHandles(handles: readonly string[]): void
  /** Frames the whole drawing. */
  fit(): void
  /** Zooms about the middle of the view: above 1 closer, below 1 farther. */
  zoom(factor: number): void
  /**
   * The model-space handle of the shape under a point of the page (client coordinates): a block
   * reference's own handle for anything drawn inside it. Undefined when nothing is there.
   */
  handleAt(clientX: number, clientY: number): string | undefined
  /** Stops drawing and lets go of everything the viewer holds. */
  destroy(): Promise<void>
}

/** How a highlight is shown: `ringed` for block references too small to see when fitted. */
export type HighlightOptions = { ringed?: boolean }

/** A name drawn at an entity: `emphasised` for the one picked (a zone chosen in a list). */
export type DrawingLabel = { handle: string; text: string; emphasised?: boolean }

/** Entities to colour as a change between two versions of a drawing, by handle. */
export type DrawingMarks = { added: readonly string[]; removed: readonly string[] }

/** Makes a viewer drawing into `container` (which it fills). */
export type CreateDrawingViewer<Source = DrawnGeometry> = (
  container: HTMLElement,
) => Promise<DrawingViewer<Source>>
