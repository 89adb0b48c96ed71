import { useQuery } from '@tanstack/react-query'
import { LocationsTab } from '../../features/locations/components/locations-tab'
import type { LocationsSlotProps } from '../../features/results/components/locations-slot'
import { rulesQueries } from '../../features/rules/api/rules-api'

/**
 * The result page's Locations tab: the locations feature's view of the job's zones, told
 * whether the job's project has locations (the rules feature keeps them) for what it proposes
 * when the bill has none.
 */
export function ResultLocations({ job, boq, onLight }: LocationsSlotProps) {
  const saved = useQuery({
    ...rulesQueries.document(job.projectId, 'locations'),
    // Asked only for a bill without zones: one with zones has nothing to propose.
    enabled: (boq.zones?.length ?? 0) === 0,
  })
  const projectHasLocations = saved.data ? saved.data.locations.length > 0 : undefined
  return (
    <LocationsTab job={job} boq={boq} projectHasLocations={projectHasLocations} onLight={onLight} />
  )
}
