import { useMutation, useQueryClient } from '@tanstack/react-query'
import { type Dispatch, useReducer, useState } from 'react'
import { errorText, httpStatus } from '../../../lib/http-errors'
import {
  type BillSettings,
  type BillSettingsDocument,
  billSettingsQueries,
  saveBillSettings,
} from '../api/bill-settings-api'
import {
  initialSettingsEditor,
  type SaveRequest,
  type SettingsEditorAction,
  type SettingsEditorState,
  settingsEditorReducer,
} from '../utils/settings-editor-state'
import { problemLines } from '../utils/settings-problems'

/** The settings page's state, and what it does with the server. */
export type SavedSettings = {
  state: SettingsEditorState
  dispatch: Dispatch<SettingsEditorAction>
  /** A save or a reload is under way. */
  busy: boolean
  /** Why the last save, restore or reload failed, when no field says it. */
  failure: string
  /** Saves the settings as the version after the one the page started from. */
  save(settings: BillSettings): void
  /** Saves an earlier version's settings again, as the version after the one the page started from. */
  restore(version: number, settings: BillSettings): void
  /** After a conflict: their version in place of the page's fields. */
  reloadTheirs(): void
  /** After a conflict: what was refused, saved again as the version after theirs. */
  keepMine(): void
}

/** A save: what, and after which version (`theirs`: the newest, asked first). */
type Save = { request: SaveRequest; after: number | 'theirs' }

/**
 * The settings as edited, saved with If-Match on the version they started from: a colleague's
 * save in between is a conflict to resolve (their version is read, to show what they changed;
 * then reload theirs, or keep mine), a 400 names its fields, a restore is a save of an earlier
 * version's settings. Each save updates the cached document and its history.
 */
export function useSavedSettings({
  projectId,
  document,
  onSaved,
}: {
  projectId: string
  document: BillSettingsDocument
  /** After each save, for what else shows the project's pricing. */
  onSaved(): void
}): SavedSettings {
  const queryClient = useQueryClient()
  const [state, dispatch] = useReducer(settingsEditorReducer, document, initialSettingsEditor)
  const [failure, setFailure] = useState('')
  const documentKey = billSettingsQueries.document(projectId).queryKey

  /** The newest saved version, asked again (not from the cache). */
  const latest = async (): Promise<BillSettingsDocument> => {
    await queryClient.invalidateQueries({ queryKey: documentKey })
    return queryClient.fetchQuery(billSettingsQueries.document(projectId))
  }

  const readTheirs = (pending: SaveRequest) => {
    latest()
      .then((theirs) =>
        dispatch({ type: 'theirs', pending, theirs: { status: 'read', document: theirs } }),
      )
      .catch((error: unknown) =>
        dispatch({
          type: 'theirs',
          pending,
          theirs: { status: 'failed', reason: errorText(error) },
        }),
      )
  }

  const saving = useMutation({
    mutationFn: async ({ request, after }: Save) =>
      saveBillSettings(
        projectId,
        after === 'theirs' ? (await latest()).version : after,
        request.settings,
      ),
    onMutate: () => setFailure(''),
    onSuccess: (saved, { request }) => {
      queryClient.setQueryData(documentKey, saved)
      queryClient
        .invalidateQueries({ queryKey: billSettingsQueries.history(projectId).queryKey })
        .catch(() => {})
      if (request.restoring === undefined) {
        dispatch({ type: 'saved', saved, note: `Saved as version ${saved.version}.` })
      } else {
        // The page becomes the restored version's settings.
        dispatch({
          type: 'loaded',
          saved,
          note: `Version ${request.restoring} restored as version ${saved.version}.`,
        })
      }
      onSaved()
    },
    onError: (error, { request }) => {
      const status = httpStatus(error)
      const reason = errorText(error)
      if (status === 412) {
        dispatch({
          type: 'conflict',
          conflict: { reason, pending: request, theirs: { status: 'reading' } },
        })
        readTheirs(request)
      } else if (request.restoring !== undefined) {
        setFailure(`Version ${request.restoring} was not restored: ${reason}`)
      } else if (status === 400) {
        dispatch({ type: 'refused', problems: problemLines(reason) })
      } else {
        setFailure(reason)
      }
    },
  })

  const reloading = useMutation({
    mutationFn: latest,
    onSuccess: (theirs) =>
      dispatch({ type: 'loaded', saved: theirs, note: `Version ${theirs.version} loaded.` }),
    onError: (error) => setFailure(errorText(error)),
  })

  const saveAfterMine = (request: SaveRequest) => saving.mutate({ request, after: state.version })

  return {
    state,
    dispatch,
    busy: saving.isPending || reloading.isPending,
    failure,
    save: (settings) => saveAfterMine({ settings }),
    restore: (version, settings) => saveAfterMine({ settings, restoring: version }),
    reloadTheirs: () => reloading.mutate(),
    keepMine: () => {
      const conflict = state.conflict
      if (!conflict) return
      // Saved after the version shown, so that a save after it is met, and shown, in turn.
      const theirs = conflict.theirs
      saving.mutate({
        request: conflict.pending,
        after: theirs.status === 'read' ? theirs.document.version : 'theirs',
      })
    },
  }
}
