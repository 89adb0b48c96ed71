import * as Popover from '@radix-ui/react-popover'
import { type QueryKey, type UseQueryOptions, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { formatDateTime } from '../../lib/format-date'
import { errorText } from '../../lib/http-errors'

/** A saved version as a document's history lists it. */
export interface SavedLine {
  version: number
  savedBy: string
  savedAt: string
}

/**
 * The History button and its popover for a versioned document (a project's rules, its bill
 * settings): every saved version, newest first, with who saved it and when (and its size, when
 * `sizeOf` says one), each opening that version. It is asked for when opened, and again after a
 * save.
 */
export function SavedHistory<Line extends SavedLine, Key extends QueryKey>({
  query,
  version,
  here,
  sizeOf,
  onOpen,
}: {
  /** The document's history query (asked for only while the popover is open). */
  query: UseQueryOptions<Line[], Error, Line[], Key>
  /** The version the editor started from, marked in the list. */
  version: number
  /** Where that version is, as its mark says: `in the table`, `on the page`. */
  here: string
  /** A version's size in words (`12 rows`), if it has one. */
  sizeOf?(line: Line): string
  /** Shows a version (read-only). */
  onOpen(version: number): void
}) {
  const [open, setOpen] = useState(false)
  const history = useQuery({ ...query, enabled: open })
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
                  {/* The line itself opens the version, read-only. */}
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
                    {sizeOf ? `, ${sizeOf(saved)}` : null}
                    {saved.version === version ? (
                      <span className="text-slate-500"> ({here})</span>
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
