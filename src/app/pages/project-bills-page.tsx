import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { projectBillsChanged } from '../../features/files/api/tree-queries'
import { projectBillQueries } from '../../features/project-bills/api/project-bills-api'
import { NewBillForm } from '../../features/project-bills/components/new-bill-form'
import { formatDateTime } from '../../lib/format-date'
import { errorText } from '../../lib/http-errors'

/** A project's bills, and a new one over the folder the tree chose (the address names it). */
export function ProjectBillsPage({
  projectId,
  folder,
}: {
  projectId: string
  folder?: { id: string; name: string }
}) {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const bills = useQuery(projectBillQueries.list(projectId))
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-4 p-6">
      <nav className="text-sm">
        <Link to="/" className="text-sky-700 underline">
          Back to the drawings
        </Link>
      </nav>
      <h1 className="text-xl font-semibold text-slate-800">Project bills</h1>
      {folder ? (
        <NewBillForm
          projectId={projectId}
          folder={folder}
          onMade={(bill) => {
            // The tree lists the project's bills under its node: with this one, next shown.
            void projectBillsChanged(queryClient, projectId)
            void navigate({
              to: '/projects/$projectId/bills/$billId',
              params: { projectId, billId: bill.id },
            })
          }}
        />
      ) : (
        <p className="text-sm text-slate-600">
          To make a bill, select a folder in the tree and choose <em>New project bill…</em>
        </p>
      )}
      {bills.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {errorText(bills.error)}
        </p>
      ) : null}
      {bills.data?.length === 0 ? (
        <p className="text-sm text-slate-600">This project has no bills yet.</p>
      ) : null}
      <ul className="flex flex-col gap-1 text-sm">
        {(bills.data ?? []).map((bill) => (
          <li key={bill.id}>
            <Link
              to="/projects/$projectId/bills/$billId"
              params={{ projectId, billId: bill.id }}
              className="text-sky-700 underline"
            >
              {bill.name}
            </Link>{' '}
            <span className="text-slate-600">
              made by {bill.createdBy} at {formatDateTime(bill.createdAt)}
            </span>
          </li>
        ))}
      </ul>
    </div>
  )
}
