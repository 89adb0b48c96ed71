import { type Job, resultDownloads } from '../api/results-api'

/** A succeeded job's files: XLSX and CSV, and the JSON when its bill was kept. */
export function ResultDownloads({ result }: { result: NonNullable<Job['result']> }) {
  const downloads = resultDownloads(result)
  return (
    <p className="flex flex-wrap gap-x-4 text-sm">
      <a className="text-sky-700 underline" href={downloads.xlsx} download>
        Download XLSX
      </a>
      <a className="text-sky-700 underline" href={downloads.csv} download>
        Download CSV
      </a>
      {downloads.json ? (
        <a className="text-sky-700 underline" href={downloads.json} download>
          Download JSON
        </a>
      ) : null}
    </p>
  )
}
