// Stands in for react-arborist's own drag-and-drop modules in the build (vite.config.ts): the file
// tree sets disableDrag and disableDrop, and react-dnd is already a no-op (./react-dnd.ts), so
// these hooks, the drop cursor and the drag preview never act (about 1.5 kB gzip). Files dropped
// from the desktop are the tree rows' own DOM events, not react-arborist's.
const noConnector = () => {}
const nothing = () => null

/** dnd/drag-hook, dnd/drop-hook, dnd/outer-drop-hook */
export const useDragHook = () => noConnector
export const useDropHook = () => noConnector
export const useOuterDrop = () => {}
export const dragTypeForNode = () => 'NODE'
export const canDragNode = () => false

/** components/cursor, default-cursor, drag-preview-container, default-drag-preview */
export const Cursor = nothing
export const DefaultCursor = nothing
export const DragPreviewContainer = nothing
export const DefaultDragPreview = nothing
