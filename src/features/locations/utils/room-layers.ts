import type { Boq } from '#contract/boq.ts'

/** Layer names architects give rooms and areas: A-AREA, ROOMS, *-SPACE, zones. */
const ROOM_NAME = /(^|[-_ .])(area|areas|room|rooms|space|spaces|zone|zones|rm)([-_ .]|$)/i

/** A layer whose closed outlines may be rooms, and how many it has. */
export type RoomLayer = { layer: string; outlines: number }

/**
 * The layers of a drawing that look like rooms, from what its kept bill knows: closed outlines
 * (closed polylines, circles, whole ellipses) on a layer named as room layers are. Whether each
 * outline holds a text is not in the bill, so these are proposals only when the drawing has
 * texts at all; an extraction with them as locations says which outlines are rooms, named how.
 */
export function roomLayers(boq: Boq): RoomLayer[] {
  const texts = (boq.source.entityCounts.TEXT ?? 0) + (boq.source.entityCounts.MTEXT ?? 0)
  if (texts === 0) return []
  return boq.areas
    .map((area) => ({
      layer: area.layer,
      outlines: area.closedPolylines + (area.closedCurves ?? 0),
    }))
    .filter((candidate) => candidate.outlines > 0 && ROOM_NAME.test(candidate.layer))
    .sort((a, b) => b.outlines - a.outlines || a.layer.localeCompare(b.layer))
}
