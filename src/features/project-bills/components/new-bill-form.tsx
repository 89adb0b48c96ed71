import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { errorText } from '../../../lib/http-errors'
import { createProjectBill, type ProjectBill, projectBillQueries } from '../api/project-bills-api'

/** A new bill over a folder (and every drawing below it), named by the person. */
export function NewBillForm({
  projectId,
  folder,
  onMade,
}: {
  projectId: string
  folder: { id: string; name: string }
  onMade: (bill: ProjectBill) => void
}) {
  const queryClient = useQueryClient()
  const [name, setName] = useState(folder.name)
  const make = useMutation({
    mutationFn: () => createProjectBill(projectId, { name: name.trim(), folderIds: [folder.id] }),
    onSuccess: async (bill) => {
      await queryClient.invalidateQueries({ queryKey: projectBillQueries.list(projectId).queryKey })
      onMade(bill)
    },
  })
  return (
    <form
      className="flex flex-col gap-2 rounded border border-slate-200 p-3"
      onSubmit={(event) => {
        event.preventDefault()
        make.mutate()
      }}
    >
      <p className="text-sm">
        A bill of every drawing in <strong>{folder.name}</strong> and below it, today’s and those
        added later.
      </p>
      <label className="flex flex-col gap-1 text-sm">
        Bill name
        <input
          className="rounded border border-slate-300 px-2 py-1"
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
      </label>
      <button
        type="submit"
        className="self-start rounded bg-sky-700 px-3 py-1 text-sm text-white disabled:opacity-50"
        disabled={name.trim() === '' || make.isPending}
      >
        Make the bill
      </button>
      {make.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {errorText(make.error)}
        </p>
      ) : null}
    </form>
  )
}
