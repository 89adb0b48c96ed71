import {
  keepPreviousData,
  type UseQueryOptions,
  type UseQueryResult,
  useQuery,
} from '@tanstack/react-query'
import { type ReactNode, useMemo, useState } from 'react'
import { errorText, httpStatus } from '../../../lib/http-errors'
import { rowErrors } from '../utils/table-rows'
import { type PreviewJob, PreviewJobSelect } from './rules-preview'
import { useDebounced } from './use-debounced'

/** An editable table's preview: the job it reads, the rows' checks, and what the server made. */
export interface TablePreview<Wire, Data> {
  jobId: string
  setJobId(jobId: string): void
  /** What is wrong with each row (1-based) before the server is asked. */
  checks: Record<number, string>
  valid: boolean
  /** The table as sent (null: not sent, a row to fix, or no row where one is needed). */
  wire: Wire[] | null
  preview: UseQueryResult<Data, Error>
  /** The server's refusal of the table, by row. */
  previewErrors: Record<number, string>
}

/**
 * An editable table previewed against a finished job of the project: each row checked as it is
 * typed, the table sent once the typing pauses and every row checks, and the server's refusal of
 * it marked on the rows it names, as a save's would be.
 */
export function useTablePreview<Row, Wire, Data, Key extends readonly unknown[]>(options: {
  rows: readonly Row[]
  /** What is wrong with a row, before the server is asked (null: nothing). */
  rowError(row: Row): string | null
  toWire(row: Row): Wire
  /** An empty table is previewed too (false: the preview waits for a row). */
  previewEmpty: boolean
  /** How long the table stays unchanged before the preview asks. */
  debounceMs: number
  query(jobId: string, rows: Wire[]): UseQueryOptions<Data, Error, Data, Key>
  /** The project's finished jobs, newest first. */
  jobs: readonly PreviewJob[]
  initialJobId?: string
}): TablePreview<Wire, Data> {
  const { rows, rowError, toWire, previewEmpty, debounceMs, query, jobs, initialJobId } = options
  const [jobId, setJobId] = useState(
    () => jobs.find((job) => job.id === initialJobId)?.id ?? jobs[0]?.id ?? '',
  )
  const checks = useMemo(() => {
    const errors: Record<number, string> = {}
    rows.forEach((row, index) => {
      const error = rowError(row)
      if (error) errors[index + 1] = error
    })
    return errors
  }, [rows, rowError])
  const valid = Object.keys(checks).length === 0
  const wire = useMemo(
    () => (valid && (previewEmpty || rows.length > 0) ? rows.map(toWire) : null),
    [rows, valid, previewEmpty, toWire],
  )
  const settled = useDebounced(wire, debounceMs)
  const preview = useQuery({
    ...query(jobId, settled ?? []),
    enabled: jobId !== '' && settled !== null,
    placeholderData: keepPreviousData,
  })
  // The server's refusal of the previewed table names its rows, as a save's would.
  const previewErrors =
    preview.isError && httpStatus(preview.error) === 400 && settled === wire
      ? rowErrors(errorText(preview.error))
      : {}
  return { jobId, setJobId, checks, valid, wire, preview, previewErrors }
}

/**
 * The preview under an editable table: the job it reads, and what it shows, or why it waits,
 * was refused or failed.
 */
export function TablePreviewSection<Data>(props: {
  jobs: PreviewJob[]
  table: TablePreview<unknown, Data>
  /** Said while the table has no row to preview (absent: an empty table is previewed). */
  noRows?: string
  /** The preview refused (400): "Not priced: ". */
  refused: string
  /** Said while the job is read. */
  waiting: string
  children(data: Data): ReactNode
}) {
  const { jobs, table, noRows, refused, waiting, children } = props
  const { jobId, setJobId, valid, wire, preview } = table
  return (
    <section aria-label="Preview" className="flex flex-col gap-2 border-t border-slate-200 pt-3">
      <h2 className="font-semibold text-slate-800">Preview</h2>
      <PreviewJobSelect jobs={jobs} jobId={jobId} onJob={setJobId} />
      {!valid ? (
        <p className="text-sm text-slate-600">The preview waits for the rows marked to be fixed.</p>
      ) : noRows && wire === null ? (
        <p className="text-sm text-slate-600">{noRows}</p>
      ) : preview.isError ? (
        // Refused (400: the rows it names are marked too), gone or unreadable: said, not waited on.
        <p className="text-sm whitespace-pre-line text-red-700">
          {httpStatus(preview.error) === 400 ? refused : 'The preview failed: '}
          {errorText(preview.error)}
        </p>
      ) : preview.data ? (
        children(preview.data)
      ) : jobId ? (
        <p className="text-sm text-slate-500">{waiting}</p>
      ) : null}
    </section>
  )
}
