// Uploading drawings in local mode: dropped onto a folder or an item row, or picked with the
// "Upload drawing…" button; a line per file; the folder loads again and shows the new item. A file
// whose name is not the item's is uploaded as its next version only once the user says so.
import { createEvent, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { fakeApi, ids, requestsTo } from '../../../testing/fake-api'
import { folder } from '../../../testing/fixtures'
import { server } from '../../../testing/msw-server'
import { renderApp } from '../../../testing/render-app'
import { clickPath, fileTree, findRow, rowTitles } from '../../../testing/tree-helpers'
import { EMPTY_FOLDER_HINT } from '../utils/upload-target'

const contentsPath = `/api/aps/hubs/${ids.hub}/projects/${ids.tower}/contents`
const loadsOf = (folderId: string) =>
  requestsTo(contentsPath).filter((r) => r.url.searchParams.get('folder_id') === folderId)
const EMPTY = 'urn:adsk.wipprod:fs.folder:co.empty'

/** A drawing as the desktop hands it over (the bytes do not matter to the fake server). */
const drawing = (name: string) => new File(['AC1032 drawing bytes'], name)

/** Drags files from the desktop over a row and drops them there. */
function dropFiles(row: HTMLElement, files: File[]) {
  const dataTransfer = { types: ['Files'], files, dropEffect: 'none' }
  fireEvent.dragEnter(row, { dataTransfer })
  fireEvent.dragOver(row, { dataTransfer })
  fireEvent.drop(row, { dataTransfer })
}

const uploadLines = () =>
  within(screen.getByRole('status', { name: 'Uploads' }))
    .queryAllByRole('listitem')
    .map((li) => li.textContent)
const uploadButton = () => screen.getByRole('button', { name: 'Upload drawing…' })
const fileInput = () => screen.getByLabelText('Drawings to upload') as HTMLInputElement
const row = (title: string | RegExp) => within(fileTree()).queryByRole('treeitem', { name: title })
const question = (name: string) => screen.findByRole('dialog', { name })
const noQuestion = () => expect(screen.queryByRole('dialog')).toBeNull()

/** Local mode, with the tree open down to Plans (Level 1 closed, never loaded). */
async function openPlans() {
  fakeApi.uploadAvailable = true
  const app = renderApp('/')
  await clickPath(app.user, ['Demo Hub', 'Tower', 'Plans'])
  await findRow('floor.dwg')
  await screen.findByRole('button', { name: 'Upload drawing…' })
  return app
}

// Whole-app tests: generous time on a shared machine.
describe('uploading drawings (local mode)', { timeout: 20_000 }, () => {
  it('drops a .dwg onto a folder row: a new item there, shown in the folder, opened', async () => {
    await openPlans()
    const level1 = await findRow('Level 1')
    expect(level1).toHaveAttribute('aria-expanded', 'false')

    // The row shows that it takes the files while they are dragged over it.
    const dataTransfer = { types: ['Files'], files: [drawing('plan.dwg')], dropEffect: 'none' }
    const over = createEvent.dragOver(level1, { dataTransfer })
    fireEvent(level1, over)
    expect(over.defaultPrevented).toBe(true)
    expect(level1).toHaveAttribute('data-drop-target', 'true')
    fireEvent.dragLeave(level1, { dataTransfer, relatedTarget: document.body })
    expect(level1).not.toHaveAttribute('data-drop-target')

    dropFiles(level1, [drawing('plan.dwg')])
    await waitFor(() => expect(uploadLines()).toEqual(['Uploaded plan.dwg as version 1.']))
    expect(fakeApi.uploads).toEqual([
      {
        projectId: ids.tower,
        folderId: ids.level1,
        itemId: null,
        fileName: 'plan.dwg',
        size: 20,
      },
    ])
    const [post] = requestsTo('/api/local/upload', 'POST')
    expect(post?.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/)

    // Level 1 opened and loaded, with the new item; the selection (Plans) stays.
    expect(await findRow('plan.dwg')).toHaveAttribute('aria-selected', 'false')
    expect(await findRow('Level 1')).toHaveAttribute('aria-expanded', 'true')
    expect(row('stair.dwg')).toBeInTheDocument()
    expect(row('Plans')).toHaveAttribute('aria-selected', 'true')
  })

  it('drops a file onto an item row: the item next version (itemId sent), under its own name', async () => {
    const { user } = await openPlans()
    await clickPath(user, ['floor.dwg'])
    await findRow(/^2 /)
    const versionLoads = () => requestsTo(`${contentsPath}/${ids.floor}/versions`)
    expect(versionLoads()).toHaveLength(1)

    dropFiles(await findRow('floor.dwg'), [drawing('floor (revised).dwg')])
    // Another name: asked first, nothing sent until then.
    const asked = await question('Upload floor (revised).dwg as version 3 of floor.dwg?')
    expect(fakeApi.uploads).toEqual([])
    await user.click(within(asked).getByRole('button', { name: 'Upload' }))
    await waitFor(() => expect(uploadLines()).toEqual(['Uploaded floor.dwg as version 3.']))
    noQuestion()
    expect(fakeApi.uploads).toEqual([
      expect.objectContaining({
        projectId: ids.tower,
        folderId: ids.plans,
        itemId: ids.floor,
        fileName: 'floor (revised).dwg',
      }),
    ])
    // The open item's versions load again: the new one on top, the others still there.
    expect(await findRow(/^3 2024-05-06/)).toBeInTheDocument()
    expect(row(/^2 /)).toBeInTheDocument()
    expect(versionLoads()).toHaveLength(2)
    expect(row('floor (revised).dwg')).toBeNull()
  })

  it('drops onto a version row as its item next version', async () => {
    const { user } = await openPlans()
    await clickPath(user, ['floor.dwg'])
    dropFiles(await findRow(/^1 /), [drawing('whatever.dwg')])
    const asked = await question('Upload whatever.dwg as version 3 of floor.dwg?')
    await user.click(within(asked).getByRole('button', { name: 'Upload' }))
    await waitFor(() => expect(uploadLines()).toEqual(['Uploaded floor.dwg as version 3.']))
    expect(fakeApi.uploads[0]).toMatchObject({ folderId: ids.plans, itemId: ids.floor })
  })

  it('uploads several dropped files one after another, with a line for each', async () => {
    await openPlans()
    const started: string[] = []
    let running = 0
    let overlapped = false
    const write = fakeApi.upload
    fakeApi.upload = (form) => {
      started.push(form.fileName)
      return write(form)
    }
    server.use(
      http.post('*/api/local/upload', async () => {
        running += 1
        if (running > 1) overlapped = true
        await new Promise((resolve) => setTimeout(resolve, 30))
        running -= 1
        // On to the default handler, which writes the drawing.
        return undefined
      }),
    )

    dropFiles(await findRow('Plans'), [
      drawing('a.dwg'),
      drawing('notes.txt'),
      drawing('floor.dwg'),
    ])
    await waitFor(() =>
      expect(uploadLines()).toEqual([
        'Uploaded a.dwg as version 1.',
        // The server's reason names the file: shown as it is.
        'Only .dwg drawings are accepted, and the name must end in ".dwg" exactly (lower case): "notes.txt" does not.',
        'Uploaded floor.dwg as version 3.',
      ]),
    )
    expect(started).toEqual(['a.dwg', 'notes.txt', 'floor.dwg'])
    expect(overlapped).toBe(false)
    expect(await findRow('a.dwg')).toBeInTheDocument()
  })

  it('shows the server refusal as it is, and leaves the tree as it was', async () => {
    await openPlans()
    const refusal = '"report.dwg" was not uploaded: not a DWG file (it looks like a PDF document).'
    fakeApi.upload = () => ({ status: 422, body: refusal })
    const before = rowTitles()
    const plansLoads = loadsOf(ids.plans).length

    dropFiles(await findRow('Plans'), [drawing('report.dwg')])
    await waitFor(() => expect(uploadLines()).toEqual([refusal]))
    const [line] = within(screen.getByRole('status', { name: 'Uploads' })).getAllByRole('listitem')
    expect(line).toHaveAttribute('data-state', 'refused')
    expect(rowTitles()).toEqual(before)
    expect(loadsOf(ids.plans)).toHaveLength(plansLoads)
  })

  it('names the file before a refusal that does not', async () => {
    await openPlans()
    fakeApi.upload = () => ({ status: 401, body: 'You are not signed in.' })
    dropFiles(await findRow('Plans'), [drawing('plan.dwg')])
    await waitFor(() => expect(uploadLines()).toEqual(['plan.dwg: You are not signed in.']))
  })

  it('uploads with the button into the selected folder', async () => {
    const { user } = await openPlans()
    // Plans was the last row clicked: it is selected.
    expect(uploadButton()).toBeEnabled()
    expect(uploadButton()).toHaveAccessibleDescription('Uploads into Plans.')
    expect(fileInput()).toHaveAttribute('accept', '.dwg')
    expect(fileInput()).toHaveAttribute('type', 'file')

    await user.upload(fileInput(), drawing('site.dwg'))
    await waitFor(() => expect(uploadLines()).toEqual(['Uploaded site.dwg as version 1.']))
    expect(fakeApi.uploads).toEqual([
      expect.objectContaining({ folderId: ids.plans, itemId: null, fileName: 'site.dwg' }),
    ])
    expect(await findRow('site.dwg')).toBeInTheDocument()
    // The folder stays selected: the next drawing goes into it too, not onto the one just added.
    expect(uploadButton()).toHaveAccessibleDescription('Uploads into Plans.')
    await user.upload(fileInput(), [drawing('roof.dwg'), drawing('site.dwg')])
    await waitFor(() =>
      expect(uploadLines()).toEqual([
        'Uploaded roof.dwg as version 1.',
        'Uploaded site.dwg as version 2.',
      ]),
    )
    expect(fakeApi.uploads.map((u) => [u.fileName, u.itemId])).toEqual([
      ['site.dwg', null],
      ['roof.dwg', null],
      ['site.dwg', null],
    ])
    expect(await findRow('roof.dwg')).toBeInTheDocument()
  })

  it('with a version selected, the button uploads its item next version', async () => {
    const { user } = await openPlans()
    await clickPath(user, ['floor.dwg', /^1 /])
    await waitFor(() =>
      expect(uploadButton()).toHaveAccessibleDescription('Uploads the next version of floor.dwg.'),
    )
    await user.upload(fileInput(), drawing('floor.dwg'))
    // The item's own name: no question.
    noQuestion()
    await waitFor(() => expect(uploadLines()).toEqual(['Uploaded floor.dwg as version 3.']))
    expect(fakeApi.uploads[0]).toMatchObject({ folderId: ids.plans, itemId: ids.floor })
    noQuestion()
  })

  it('asks before the button uploads a file of another name as the next version', async () => {
    const { user } = await openPlans()
    await clickPath(user, ['floor.dwg', /^2 /])
    await user.upload(fileInput(), drawing('2007_ATMOS.dwg'))
    const asked = await question('Upload 2007_ATMOS.dwg as version 3 of floor.dwg?')
    expect(uploadLines()).toEqual(['Waiting for your answer: 2007_ATMOS.dwg'])
    await user.click(within(asked).getByRole('button', { name: 'Upload' }))
    await waitFor(() => expect(uploadLines()).toEqual(['Uploaded floor.dwg as version 3.']))
    expect(fakeApi.uploads).toEqual([
      expect.objectContaining({ itemId: ids.floor, fileName: '2007_ATMOS.dwg' }),
    ])
  })

  it('uploads nothing when the question is cancelled', async () => {
    const { user } = await openPlans()
    const before = rowTitles()
    // The item was never opened: its versions load to say which version the file would be.
    dropFiles(await findRow('floor.dwg'), [drawing('plan-B.dwg')])
    const asked = await question('Upload plan-B.dwg as version 3 of floor.dwg?')
    // The safe answer has the focus.
    expect(within(asked).getByRole('button', { name: 'Cancel' })).toHaveFocus()
    await user.click(within(asked).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(uploadLines()).toEqual(['Not uploaded: plan-B.dwg']))
    const [line] = within(screen.getByRole('status', { name: 'Uploads' })).getAllByRole('listitem')
    expect(line).toHaveAttribute('data-state', 'cancelled')
    noQuestion()
    expect(requestsTo('/api/local/upload', 'POST')).toEqual([])
    expect(fakeApi.uploads).toEqual([])
    expect(rowTitles()).toEqual(before)
  })

  it('asks for each file of another name in turn, with the version each would be', async () => {
    const { user } = await openPlans()
    dropFiles(await findRow('floor.dwg'), [
      drawing('a.dwg'),
      drawing('floor.dwg'),
      drawing('b.dwg'),
    ])
    const first = await question('Upload a.dwg as version 3 of floor.dwg?')
    await user.click(within(first).getByRole('button', { name: 'Cancel' }))
    // floor.dwg goes without a question, as version 3; b.dwg would then be version 4.
    const second = await question('Upload b.dwg as version 4 of floor.dwg?')
    await user.click(within(second).getByRole('button', { name: 'Upload' }))
    await waitFor(() =>
      expect(uploadLines()).toEqual([
        'Not uploaded: a.dwg',
        'Uploaded floor.dwg as version 3.',
        'Uploaded floor.dwg as version 4.',
      ]),
    )
    expect(fakeApi.uploads.map((u) => u.fileName)).toEqual(['floor.dwg', 'b.dwg'])
  })

  it('asks nothing when a file goes into a folder, whatever its name', async () => {
    await openPlans()
    dropFiles(await findRow('Plans'), [drawing('floor.dwg'), drawing('other.dwg')])
    await waitFor(() =>
      expect(uploadLines()).toEqual([
        'Uploaded floor.dwg as version 3.',
        'Uploaded other.dwg as version 1.',
      ]),
    )
    noQuestion()
  })

  it('disables the button, saying why, when nothing suitable is selected', async () => {
    fakeApi.uploadAvailable = true
    const { user } = renderApp('/')
    const button = await screen.findByRole('button', { name: 'Upload drawing…' })
    expect(button).toBeDisabled()
    expect(fileInput()).toBeDisabled()
    expect(button).toHaveAccessibleDescription(
      'Select a folder to upload drawings into (or a drawing, for its next version).',
    )
    await clickPath(user, ['Demo Hub'])
    await waitFor(() =>
      expect(button).toHaveAccessibleDescription(
        'Select a folder to upload into: a hub holds folders, not drawings.',
      ),
    )
    await clickPath(user, ['Tower'])
    await waitFor(() =>
      expect(button).toHaveAccessibleDescription(
        'Select a folder to upload into: a project holds folders, not drawings.',
      ),
    )
    expect(button).toBeDisabled()
    // Hub and project rows take no drop either.
    dropFiles(await findRow('Tower'), [drawing('plan.dwg')])
    expect(requestsTo('/api/local/upload', 'POST')).toEqual([])
  })

  it('shows a hint in an empty folder, which takes drops for it', async () => {
    fakeApi.contents[ids.plans]?.unshift(folder('Empty', EMPTY))
    fakeApi.contents[EMPTY] = []
    const { user } = await openPlans()
    await clickPath(user, ['Empty'])
    const hint = await findRow(EMPTY_FOLDER_HINT)
    expect(EMPTY_FOLDER_HINT).toBe(
      'No drawings here yet. Drop .dwg files onto this folder, or use Upload drawing…',
    )
    // The hint is no node: clicking it selects nothing, and the folder stays selected.
    await user.click(hint)
    expect(hint).toHaveAttribute('aria-selected', 'false')
    expect(uploadButton()).toHaveAccessibleDescription('Uploads into Empty.')

    dropFiles(hint, [drawing('first.dwg')])
    await waitFor(() => expect(uploadLines()).toEqual(['Uploaded first.dwg as version 1.']))
    expect(fakeApi.uploads[0]).toMatchObject({ folderId: EMPTY, itemId: null })
    expect(await findRow('first.dwg')).toBeInTheDocument()
    await waitFor(() => expect(row(EMPTY_FOLDER_HINT)).toBeNull())
  })

  it('shows no hint where a folder failed to load', async () => {
    fakeApi.contents[ids.plans]?.unshift(folder('Broken', EMPTY))
    server.use(
      http.get('*/api/aps/hubs/:hubId/projects/:projectId/contents', ({ request }) =>
        new URL(request.url).searchParams.get('folder_id') === EMPTY
          ? new HttpResponse('down', { status: 503 })
          : undefined,
      ),
    )
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { user } = await openPlans()
    await clickPath(user, ['Broken'])
    await waitFor(() => expect(logged).toHaveBeenCalled())
    await waitFor(() => expect(row('Broken')).toHaveAttribute('aria-expanded', 'true'))
    expect(row(EMPTY_FOLDER_HINT)).toBeNull()
  })
})

describe('in Autodesk mode (no uploads)', { timeout: 20_000 }, () => {
  it('has no upload button, no drop targets and no hint: the screen as specified', async () => {
    fakeApi.contents[ids.plans]?.unshift(folder('Empty', EMPTY))
    fakeApi.contents[EMPTY] = []
    const { user } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower', 'Plans', 'Empty'])
    await findRow('floor.dwg')
    await waitFor(() => expect(requestsTo('/api/local/upload')).toHaveLength(1))
    await waitFor(() => expect(row('Empty')).toHaveAttribute('aria-expanded', 'true'))
    expect(loadsOf(EMPTY)).toHaveLength(1)

    expect(screen.queryByRole('button', { name: 'Upload drawing…' })).toBeNull()
    expect(screen.queryByLabelText('Drawings to upload')).toBeNull()
    expect(screen.queryByRole('status', { name: 'Uploads' })).toBeNull()
    expect(row(EMPTY_FOLDER_HINT)).toBeNull()
    expect(rowTitles()).not.toContain(EMPTY_FOLDER_HINT)

    const plans = await findRow('Plans')
    fireEvent.dragOver(plans, { dataTransfer: { types: ['Files'], files: [] } })
    expect(plans).not.toHaveAttribute('data-drop-target')
    dropFiles(plans, [drawing('plan.dwg')])
    expect(requestsTo('/api/local/upload', 'POST')).toEqual([])
    expect(fakeApi.uploads).toEqual([])
  })
})
