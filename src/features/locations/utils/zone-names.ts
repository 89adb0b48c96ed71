import type { Zone } from '#contract/locations.ts'
import type { ZonePick } from './zone-figures'

/** A zone's name as the drawing draws it: at its outline, the picked one emphasised. */
export type ZoneName = { handle: string; text: string; emphasised: boolean }

/**
 * Every zone's own name at its outline (the drawing shows the nesting, so not the path), the
 * picked zone's emphasised; none is with nothing picked or Unallocated.
 */
export function zoneNames(zones: readonly Zone[], picked: ZonePick | undefined): ZoneName[] {
  return zones.map((zone) => ({
    handle: zone.handle,
    text: zone.name,
    emphasised: picked !== undefined && picked !== null && zone.id === picked,
  }))
}
