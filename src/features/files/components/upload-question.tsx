import { useEffect, useId, useRef } from 'react'

type Props = {
  /** The question, which also names the dialog. */
  text: string
  onAnswer(yes: boolean): void
}

/**
 * Asks before an upload (a modal `<dialog>`: the page behind it is inert, focus starts on Cancel,
 * Escape cancels). Shown while mounted.
 */
export function UploadQuestion({ text, onAnswer }: Props) {
  const dialog = useRef<HTMLDialogElement>(null)
  const textId = useId()
  useEffect(() => {
    const element = dialog.current
    element?.showModal()
    return () => element?.close()
  }, [])
  return (
    <dialog
      ref={dialog}
      aria-labelledby={textId}
      onCancel={(e) => {
        // Escape: the answer is no, and the dialog goes when its question does.
        e.preventDefault()
        onAnswer(false)
      }}
      className="m-auto max-w-md rounded-md border border-slate-200 bg-white p-5 shadow-lg backdrop:bg-slate-900/30"
    >
      <p id={textId} className="text-sm text-slate-800">
        {text}
      </p>
      <div className="mt-4 flex justify-end gap-2">
        <button
          type="button"
          onClick={() => onAnswer(false)}
          className="rounded border border-slate-300 px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-50"
        >
          Cancel
        </button>
        <button
          type="button"
          onClick={() => onAnswer(true)}
          className="rounded bg-sky-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-sky-800"
        >
          Upload
        </button>
      </div>
    </dialog>
  )
}
