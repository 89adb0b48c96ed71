import { Link } from '@tanstack/react-router'
import type { RoomLayer } from '../utils/room-layers'

/**
 * What a result without zones says on its Locations tab: why it has none and, when its project
 * has no locations, the layers whose closed outlines look like rooms, one click from being its
 * locations (the project's locations page, with a row per layer, names from the text inside).
 */
export function RoomsHint({
  projectId,
  jobId,
  projectHasLocations,
  measuredWithLocations,
  candidates,
}: {
  projectId: string
  jobId: string
  /** Undefined while the project's locations are asked for. */
  projectHasLocations: boolean | undefined
  /** The job's bill was measured with the project's locations (and they found no zone). */
  measuredWithLocations: boolean
  candidates: readonly RoomLayer[]
}) {
  const link = (text: string, layers?: string[]) => (
    <Link
      to="/projects/$projectId/locations"
      params={{ projectId }}
      search={{ job: jobId, layers }}
      className="text-sky-700 underline"
    >
      {text}
    </Link>
  )
  if (measuredWithLocations) {
    return (
      <p className="text-sm text-slate-700">
        The project’s locations found no room or zone in this drawing: no closed outline on the
        layers they name. {link('Change the locations')}, then extract the drawing again.
      </p>
    )
  }
  if (projectHasLocations === undefined) return null
  if (projectHasLocations) {
    return (
      <p className="text-sm text-slate-700">
        This extraction was made before the project had locations: extract the drawing again to
        measure its bill by room. {link('The project’s locations')}
      </p>
    )
  }
  if (candidates.length === 0) {
    return (
      <p className="text-sm text-slate-700">
        No rooms or zones: the project has no locations, and no layer of this drawing looks like one
        of rooms (closed outlines on a layer such as A-AREA, ROOMS or *-SPACE).{' '}
        {link('Say which layers are rooms')}
      </p>
    )
  }
  return (
    <section aria-label="Rooms proposed" className="flex flex-col gap-2 text-sm text-slate-700">
      <p>
        No rooms or zones yet: the project has no locations. These layers hold closed outlines and
        are named as room layers are; used as locations, each outline is a room named by the text
        inside it.
      </p>
      <ul className="list-inside list-disc">
        {candidates.map((candidate) => (
          <li key={candidate.layer}>
            {candidate.layer}: {candidate.outlines} closed outline
            {candidate.outlines === 1 ? '' : 's'}
          </li>
        ))}
      </ul>
      <p>
        {link(
          candidates.length === 1 ? 'Use this layer as rooms' : 'Use these layers as rooms',
          candidates.map((candidate) => candidate.layer),
        )}
      </p>
    </section>
  )
}
