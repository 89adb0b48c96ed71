import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { errorText } from '../../../lib/http-errors'
import { issueProjectBill, projectBillQueries } from '../api/project-bills-api'

/** Issue the bill: its figures frozen under a name as the next issue. */
export function IssueForm({ projectId, billId }: { projectId: string; billId: string }) {
  const queryClient = useQueryClient()
  const [name, setName] = useState('')
  const formId = useId()
  const issue = useMutation({
    mutationFn: () => issueProjectBill(projectId, billId, name.trim()),
    onSuccess: async () => {
      setName('')
      await queryClient.invalidateQueries({ queryKey: projectBillQueries.all() })
    },
  })
  const issued = issue.data
  return (
    <form
      className="flex flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault()
        issue.mutate()
      }}
    >
      <label className="flex flex-col gap-1 text-sm">
        Issue name
        <input
          className="rounded border border-slate-300 px-2 py-1 placeholder:text-slate-400 placeholder:italic"
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder="Tender, Revision B…"
          aria-describedby={`${formId}-hint`}
        />
      </label>
      {/* The placeholder is an example, not a value: the button waits for a name. */}
      <p id={`${formId}-hint`} className="text-xs text-slate-500">
        Name the issue to issue the bill: its figures are kept as they are now, under that name.
      </p>
      <button
        type="submit"
        className="self-start rounded bg-sky-700 px-3 py-1 text-sm text-white disabled:opacity-50"
        disabled={name.trim() === '' || issue.isPending}
      >
        Issue the bill
      </button>
      {issue.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {errorText(issue.error)}
        </p>
      ) : null}
      {issued ? (
        <p role="status" className="text-sm text-slate-700">
          Issued as issue {issued.number} ({issued.name})
          {issued.written
            ? `; its workbook written as ${issued.written.fileName} version ${issued.written.versionNumber}.`
            : `. ${issued.writeBackError ?? ''}`}
        </p>
      ) : null}
    </form>
  )
}
