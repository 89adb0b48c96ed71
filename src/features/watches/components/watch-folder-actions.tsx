import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { ExtractUnits } from '#contract/units.ts'
import { errorText } from '../../../lib/http-errors'
import { rememberWatch, startWatching, watchesQueries } from '../api/watches-api'
import { stateTitle, stateWord } from '../utils/watch-words'
import { useStopWatching } from './use-watches'

type Props = {
  folder: { projectId: string; folderId: string }
  /** The units a new watch's bills are made in, read when the person clicks (none: by each drawing). */
  unitsForNewWatch?(): ExtractUnits | undefined
}

const ACTION = 'text-sm text-sky-700 underline disabled:cursor-not-allowed disabled:text-slate-400'

/** Under the tree, for a selected folder: "Watch this folder", or its watch and "Stop watching". */
export function WatchFolderActions({ folder, unitsForNewWatch }: Props) {
  const queryClient = useQueryClient()
  const watches = useQuery(watchesQueries.list())
  const watch = watches.data?.find((w) => w.fileFolderId === folder.folderId)
  const start = useMutation({
    mutationFn: startWatching,
    onSuccess: (created) => rememberWatch(queryClient, created),
  })
  const stop = useStopWatching()
  const busy = start.isPending || stop.isPending
  const failure = start.isError
    ? `Could not watch this folder: ${errorText(start.error)}`
    : stop.isError
      ? `Could not stop watching: ${errorText(stop.error)}`
      : null

  const watchFolder = () => {
    stop.reset()
    const units = unitsForNewWatch?.()
    start.mutate({
      projectId: folder.projectId,
      fileFolderId: folder.folderId,
      ...(units ? { units } : {}),
    })
  }

  return (
    <fieldset aria-label="Watching the selected folder" className="mt-1 flex flex-col gap-1">
      <div className="flex flex-wrap items-baseline gap-x-3">
        {watch ? (
          <>
            <span className="text-sm text-slate-700" title={stateTitle(watch)}>
              {stateWord(watch)}
            </span>
            <button
              type="button"
              className={ACTION}
              disabled={busy}
              onClick={() => {
                start.reset()
                stop.mutate(watch)
              }}
            >
              Stop watching
            </button>
          </>
        ) : (
          <button
            type="button"
            className={ACTION}
            // Until the list is known, a watch could already be there.
            disabled={busy || watches.isPending}
            title="New .dwg versions in this folder and its subfolders get their bill by themselves, in your name"
            onClick={watchFolder}
          >
            Watch this folder
          </button>
        )}
      </div>
      {failure ? (
        <p role="alert" className="rounded bg-red-50 px-3 py-2 text-sm text-red-800">
          {failure}
        </p>
      ) : null}
    </fieldset>
  )
}
