import { useQuery } from '@tanstack/react-query'
import { LocationsTab } from '../../features/locations/components/locations-tab'
import type { LocationsSlotProps } from '../../features/results/components/locations-slot'
import { rulesQueries } from '../../features/rules/api/rules-api'

/**
 * The result page's Locations tab: the locations feature's view of the job's zones, told of the
 * job's project's locations (the rules feature keeps them): whether it has any, for what the tab
 * proposes when the bill has none, and their version, newer than the bill's or not.
 */
export function ResultLocations({ job, boq, onLight }: LocationsSlotProps) {
  const saved = useQuery(rulesQueries.document(job.projectId, 'locations'))
  const project = saved.data
    ? { hasLocations: saved.data.locations.length > 0, version: saved.data.version }
    : undefined
  return <LocationsTab job={job} boq={boq} project={project} onLight={onLight} />
}
