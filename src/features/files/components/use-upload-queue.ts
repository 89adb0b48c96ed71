import { useCallback, useRef, useState } from 'react'
import { type Uploaded, type UploadTarget, uploadDrawing } from '../api/upload-api'
import { asksFirst, refusedLine, uploadedLine, versionQuestion } from '../utils/upload-target'

/** One file's line under the tree: waiting, uploading, then uploaded, refused or cancelled. */
export type UploadLine = {
  key: number
  state: 'waiting' | 'uploading' | 'uploaded' | 'refused' | 'cancelled'
  text: string
}

/** A question the user answers before a file is uploaded (one at a time; the first answer counts). */
export type PendingQuestion = {
  key: number
  text: string
  answer(yes: boolean): void
}

/**
 * Uploads files one after another, whatever way they came (drops, the button), with a line per
 * file. A batch that starts when every file before it has its result replaces their lines; one
 * that starts while files are waiting or uploading adds its own. `onUploaded` runs after each
 * success (the tree shows the new file) before the next upload starts. A file that would become
 * the next version of an item of another name waits, when its turn comes, for the user's answer
 * to `question` (with the version `nextVersion` expects then); a no uploads nothing.
 */
export function useUploadQueue(
  onUploaded: (target: UploadTarget, uploaded: Uploaded) => Promise<void>,
  nextVersion: (target: UploadTarget) => Promise<number | undefined>,
) {
  const [lines, setLines] = useState<UploadLine[]>([])
  const [question, setQuestion] = useState<PendingQuestion | null>(null)
  const queue = useRef<Promise<void>>(Promise.resolve())
  const unfinished = useRef(0)
  const lastKey = useRef(0)
  const onUploadedRef = useRef(onUploaded)
  onUploadedRef.current = onUploaded
  const nextVersionRef = useRef(nextVersion)
  nextVersionRef.current = nextVersion

  const enqueue = useCallback((target: UploadTarget, files: readonly File[]) => {
    if (files.length === 0) return
    const batch = files.map((file) => ({ file, key: ++lastKey.current }))
    const waiting = batch.map(
      ({ file, key }): UploadLine => ({ key, state: 'waiting', text: `Waiting: ${file.name}` }),
    )
    const fresh = unfinished.current === 0
    unfinished.current += batch.length
    setLines((old) => (fresh ? waiting : [...old, ...waiting]))
    const update = (key: number, line: Omit<UploadLine, 'key'>) =>
      setLines((old) => old.map((l) => (l.key === key ? { key, ...line } : l)))

    const ask = (key: number, text: string) =>
      new Promise<boolean>((resolve) => {
        let answered = false
        setQuestion({
          key,
          text,
          // The first answer counts (a dialog closing after it says nothing more).
          answer: (yes) => {
            if (answered) return
            answered = true
            setQuestion((shown) => (shown?.key === key ? null : shown))
            resolve(yes)
          },
        })
      })

    for (const { file, key } of batch) {
      queue.current = queue.current.then(async () => {
        if (asksFirst(target, file.name)) {
          // Asked when its turn comes: the files before it have their versions by then.
          const versionNumber = await nextVersionRef.current(target).catch(() => undefined)
          update(key, { state: 'waiting', text: `Waiting for your answer: ${file.name}` })
          if (!(await ask(key, versionQuestion(file.name, target, versionNumber)))) {
            unfinished.current -= 1
            update(key, { state: 'cancelled', text: `Not uploaded: ${file.name}` })
            return
          }
        }
        update(key, { state: 'uploading', text: `Uploading ${file.name}…` })
        let uploaded: Uploaded
        try {
          uploaded = await uploadDrawing(target, file)
        } catch (error) {
          unfinished.current -= 1
          update(key, { state: 'refused', text: refusedLine(file.name, error) })
          return
        }
        // Its line says how it went: the next batch may replace it.
        unfinished.current -= 1
        update(key, { state: 'uploaded', text: uploadedLine(uploaded) })
        await onUploadedRef.current(target, uploaded).catch((error: unknown) => {
          console.error('Could not show the uploaded drawing in the tree', error)
        })
      })
    }
  }, [])

  return { lines, question, enqueue }
}
