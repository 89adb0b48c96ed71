/** How the drawing view shows a drawing: its highlight, its marks and its framing. */

/** Highlighted entities, and the rest dimmed while some are. */
export const HIGHLIGHT_COLOR = 0xff9f1a
export const DIMMED_COLOR = 0x5b6270
/** Rings around highlighted block references: near the highlight, yet told apart from it. */
export const MARKER_COLOR = 0xfde047
/** Entities a newer version added, and those it removed (drawn on the older version). */
export const ADDED_COLOR = 0x22c55e
export const REMOVED_COLOR = 0xef4444
/** Room left around what is framed: 1 is edge to edge. */
export const FRAME_MARGIN = 1.2
