import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { jobsQueries } from '../../features/jobs/api/jobs-api'
import { rulesQueries } from '../../features/rules/api/rules-api'
import { LocationsEditor } from '../../features/rules/components/locations-editor'
import type { PreviewJob } from '../../features/rules/components/rules-preview'
import { formatDateTime } from '../../lib/format-date'
import { errorText } from '../../lib/http-errors'

/** What the locations page's address may carry: the job the person came from, layers proposed. */
export type LocationsSearch = { job?: string; layers?: string[] }

/** A project's locations: which closed outlines are its rooms and zones, and their names. */
export function LocationsPage({
  projectId,
  search,
}: {
  projectId: string
  search: LocationsSearch
}) {
  const document = useQuery(rulesQueries.document(projectId, 'locations'))
  const prefills = search.layers?.map((layer) => ({ layer, label: 'text' }))
  const jobs = useQuery(jobsQueries.list())
  const finished: PreviewJob[] = (jobs.data ?? [])
    .filter((job) => job.projectId === projectId && job.status === 'succeeded')
    .map((job) => ({
      id: job.id,
      label: `${job.fileName}${job.fileVersionNumber === null ? '' : `, version ${job.fileVersionNumber}`} (${formatDateTime(job.createdAt)})`,
    }))
  return (
    <div className="flex flex-col gap-4 p-4">
      <nav className="flex gap-4 text-sm">
        <Link to="/" className="text-sky-700 underline">
          Back to the drawings
        </Link>
        {search.job ? (
          <Link to="/jobs/$jobId" params={{ jobId: search.job }} className="text-sky-700 underline">
            Back to the result
          </Link>
        ) : null}
        <Link
          to="/projects/$projectId/rules"
          params={{ projectId }}
          search={{ job: search.job }}
          className="text-sky-700 underline"
        >
          Takeoff rules
        </Link>
      </nav>
      <h1 className="text-lg font-semibold text-slate-800">Locations</h1>
      <p className="max-w-prose text-sm text-slate-600">
        The rooms and zones of the project’s drawings: each row takes the closed outlines on the
        layers its glob matches (<code>A-AREA</code>, <code>*-SPACE</code>), named by the text
        inside (<code>text</code>), a room tag’s attribute (<code>attribute:NAME</code>) or the
        layer itself (<code>layer</code>); the label layer, when given, is where the name is read
        from. Every extraction from then on gives the bill by room, a room schedule, and every piece
        in the room that holds it.
      </p>
      {/* Once loaded, the editor stays: a later failed refetch must not take unsaved rows away. */}
      {document.isPending || jobs.isPending ? (
        <p className="text-sm text-slate-500">Loading the locations…</p>
      ) : !document.data ? (
        <p role="alert" className="text-sm text-red-700">
          {errorText(document.error)}
        </p>
      ) : (
        <LocationsEditor
          key={projectId}
          projectId={projectId}
          document={document.data}
          jobs={finished}
          initialJobId={search.job}
          prefills={prefills}
          // Nothing priced changes: locations reach a bill only through its next extraction.
          onSaved={() => {}}
        />
      )}
    </div>
  )
}
