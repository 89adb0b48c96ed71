import * as Popover from '@radix-ui/react-popover'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { formatDateTime } from '../../../lib/format-date'
import { errorText } from '../../../lib/http-errors'
import { billSettingsQueries } from '../api/bill-settings-api'

/**
 * The History button and its popover: every saved version of the settings, newest first, with
 * who saved it and when, each opening that version. Asked for when opened, and again after a save.
 */
export function SettingsHistory({
  projectId,
  version,
  onOpen,
}: {
  projectId: string
  /** The version the page started from, marked in the list. */
  version: number
  /** Shows a version's settings (read-only). */
  onOpen(version: number): void
}) {
  const [open, setOpen] = useState(false)
  const history = useQuery({ ...billSettingsQueries.history(projectId), enabled: open })
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild>
        <button
          type="button"
          className="rounded border border-slate-400 px-2 py-0.5 text-sm hover:bg-slate-100"
        >
          History
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={6}
          aria-label="History"
          className="z-50 max-h-80 min-w-72 overflow-y-auto rounded-md border border-slate-200 bg-white p-3 text-sm shadow-lg"
        >
          <h2 className="mb-2 font-semibold text-slate-800">Saved versions</h2>
          {history.isPending ? (
            <p className="text-slate-500">Loading the history…</p>
          ) : history.isError ? (
            <p role="alert" className="text-red-700">
              {errorText(history.error)}
            </p>
          ) : history.data.length === 0 ? (
            <p className="text-slate-600">Never saved.</p>
          ) : (
            <ol aria-label="Saved versions" className="flex flex-col gap-1 text-slate-700">
              {history.data.map((saved) => (
                <li key={saved.version}>
                  <button
                    type="button"
                    onClick={() => {
                      setOpen(false)
                      onOpen(saved.version)
                    }}
                    className="rounded px-1 text-left hover:bg-slate-100"
                  >
                    <span className="font-medium text-sky-800 underline">
                      Version {saved.version}
                    </span>
                    , saved by {saved.savedBy} on{' '}
                    <span className="tabular-nums">{formatDateTime(saved.savedAt)}</span>
                    {saved.version === version ? (
                      <span className="text-slate-500"> (on the page)</span>
                    ) : null}
                  </button>
                </li>
              ))}
            </ol>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  )
}
