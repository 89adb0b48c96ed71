import { useEffect, useMemo, useState } from 'react'
import type { Boq } from '#contract/boq.ts'
import type { Job } from '#contract/jobs.ts'
import { roomLayers } from '../utils/room-layers'
import {
  hasUnallocated,
  itemsInZone,
  linesInZone,
  type ZonePick,
  zoneHandles,
} from '../utils/zone-figures'
import { type ZoneName, zoneNames } from '../utils/zone-names'
import { RoomsHint } from './rooms-hint'
import { ZoneBill } from './zone-bill'
import { ZonesTable } from './zones-table'

/**
 * A result's rooms and zones: the zones its bill was measured in (name, path, area, perimeter),
 * every outline lit and named in the drawing, and the bill in the one picked (each line's and
 * priced item's quantity there), its outline and pieces lit instead, its name emphasised;
 * Unallocated shows what no zone holds. A bill without zones says why, and proposes the drawing's
 * layers that look like rooms when the project has no locations.
 */
export function LocationsTab({
  job,
  boq,
  project,
  onLight,
}: {
  job: Job
  boq: Boq
  /** The job's project's saved locations: any rows, and their version (undefined: not known yet). */
  project: { hasLocations: boolean; version: number } | undefined
  /** The handles to light in the drawing (null: the bill's selection again), and the names drawn. */
  onLight(handles: string[] | null, names?: readonly ZoneName[]): void
}) {
  const zones = boq.zones ?? []
  const [picked, setPicked] = useState<ZonePick | undefined>(undefined)
  // With no zone picked the drawing outlines every zone; a zone picked lights it and its pieces.
  // Every zone is named in the drawing either way, the picked one emphasised.
  const lit = useMemo(() => {
    if (picked !== undefined) return zoneHandles(boq, picked)
    const outlines = (boq.zones ?? []).map((zone) => zone.handle)
    return outlines.length > 0 ? outlines : null
  }, [boq, picked])
  const names = useMemo(() => zoneNames(boq.zones ?? [], picked), [boq, picked])
  useEffect(() => {
    onLight(lit, names)
  }, [onLight, lit, names])
  // The drawing goes back to the bill's selection, unnamed, once the tab is left.
  useEffect(() => () => onLight(null), [onLight])
  const candidates = useMemo(() => (zones.length === 0 ? roomLayers(boq) : []), [boq, zones])
  if (zones.length === 0) {
    return (
      <div className="py-2">
        <RoomsHint
          projectId={job.projectId}
          jobId={job.id}
          projectHasLocations={project?.hasLocations}
          measuredWithLocations={job.pricedWith?.locationsVersion !== undefined}
          candidates={candidates}
        />
      </div>
    )
  }
  const pick = (zone: ZonePick) => setPicked(zone)
  const chosen = picked === undefined ? undefined : zones.find((zone) => zone.id === picked)
  const place = picked === null ? 'Unallocated' : chosen?.path
  const measuredWith = job.pricedWith?.locationsVersion
  return (
    <div className="flex flex-col gap-3 py-2">
      <p className="text-sm text-slate-600">
        {zones.length} zone{zones.length === 1 ? '' : 's'}
        {measuredWith ? `, found by the project’s locations version ${measuredWith}` : ''}; pick one
        to see the bill in it and light it in the drawing.
      </p>
      {measuredWith && project && project.version > measuredWith ? (
        <p className="text-sm text-amber-800">
          The project’s locations are now version {project.version}: extract the drawing again to
          measure it with them.
        </p>
      ) : null}
      <ZonesTable zones={zones} units={boq.units} picked={picked} onPick={pick} />
      <div className="flex gap-3">
        {hasUnallocated(boq) ? (
          <button
            type="button"
            aria-pressed={picked === null}
            onClick={() => pick(null)}
            className="rounded border border-slate-400 px-3 py-1 text-sm hover:bg-slate-100"
          >
            Unallocated
          </button>
        ) : null}
        {picked === undefined ? null : (
          <button
            type="button"
            onClick={() => setPicked(undefined)}
            className="rounded border border-slate-400 px-3 py-1 text-sm hover:bg-slate-100"
          >
            Clear
          </button>
        )}
      </div>
      {picked === undefined || place === undefined ? null : (
        <>
          <ZoneBill caption={`Bill in ${place}`} rows={linesInZone(boq, picked)} />
          {boq.priced ? (
            <ZoneBill
              caption={`Priced items in ${place}`}
              rows={itemsInZone(boq.priced.items, picked)}
            />
          ) : null}
        </>
      )}
    </div>
  )
}
