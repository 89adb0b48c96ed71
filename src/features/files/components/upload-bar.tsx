import { useId, useRef } from 'react'
import { UploadQuestion } from './upload-question'
import type { PendingQuestion, UploadLine } from './use-upload-queue'

type Props = {
  /** Why not, or what an upload does with the selection (one short line). */
  note: string
  /** False when the selection has nowhere for a drawing to go. */
  enabled: boolean
  lines: UploadLine[]
  /** What the user is asked before the next upload, if anything. */
  question: PendingQuestion | null
  onFiles(files: File[]): void
}

const LINE_COLOURS: Record<UploadLine['state'], string> = {
  waiting: 'text-slate-500',
  uploading: 'text-slate-700',
  uploaded: 'text-emerald-800',
  refused: 'text-red-800',
  cancelled: 'text-slate-500',
}

/**
 * "Upload drawing…" (a native file picker for .dwg files), a line per upload under it, and the
 * question an upload waits for.
 */
export function UploadBar({ note, enabled, lines, question, onFiles }: Props) {
  const input = useRef<HTMLInputElement>(null)
  const noteId = useId()
  return (
    <div className="mt-3 flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <button
          type="button"
          disabled={!enabled}
          aria-describedby={noteId}
          onClick={() => input.current?.click()}
          className="rounded border border-sky-700 px-3 py-1.5 text-sm font-medium text-sky-800 hover:bg-sky-50 disabled:cursor-not-allowed disabled:border-slate-300 disabled:bg-transparent disabled:text-slate-400"
        >
          Upload drawing…
        </button>
        <input
          ref={input}
          type="file"
          accept=".dwg"
          multiple
          hidden
          disabled={!enabled}
          aria-label="Drawings to upload"
          onChange={(e) => {
            const files = [...(e.currentTarget.files ?? [])]
            // Picking the same file again is a change too.
            e.currentTarget.value = ''
            if (files.length > 0) onFiles(files)
          }}
        />
        <p id={noteId} className="text-xs text-slate-600">
          {note}
        </p>
      </div>
      <div role="status" aria-label="Uploads">
        {lines.length > 0 ? (
          <ul className="flex flex-col gap-0.5 text-sm">
            {lines.map((line) => (
              <li key={line.key} data-state={line.state} className={LINE_COLOURS[line.state]}>
                {line.text}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      {question ? (
        <UploadQuestion key={question.key} text={question.text} onAnswer={question.answer} />
      ) : null}
    </div>
  )
}
