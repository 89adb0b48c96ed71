import { useEffect, useId, useRef } from 'react'

type Props = {
  /** The question, which also names the dialog. */
  text: string
  onAnswer(yes: boolean): void
}

/**
 * Asks before an upload (a modal `<dialog>`: the page behind it is inert, focus starts on Cancel,
 * Escape says no). Shown while mounted; `onAnswer` may be called again after the first answer.
 */
export function UploadQuestion({ text, onAnswer }: Props) {
  const dialog = useRef<HTMLDialogElement>(null)
  const cancel = useRef<HTMLButtonElement>(null)
  const textId = useId()
  useEffect(() => {
    const element = dialog.current
    element?.showModal()
    // The safe answer has the focus: Enter does not upload by mistake.
    cancel.current?.focus()
    return () => element?.close()
  }, [])
  return (
    <dialog
      ref={dialog}
      aria-labelledby={textId}
      // Escape closes it (with or without a cancel event first): the answer is no. A close that
      // comes once it is open again (React's development remount) says nothing.
      onClose={(e) => {
        if (!e.currentTarget.open) onAnswer(false)
      }}
      className="m-auto max-w-md rounded-md border border-slate-200 bg-white p-5 shadow-lg backdrop:bg-slate-900/30"
    >
      <p id={textId} className="text-sm text-slate-800">
        {text}
      </p>
      <div className="mt-4 flex justify-end gap-2">
        <button
          ref={cancel}
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
