import { act, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { setCookie } from '../../../testing/cookies'
import { fakeApi, ids, requestsTo } from '../../../testing/fake-api'
import { job, succeededJob } from '../../../testing/fixtures'
import { renderApp } from '../../../testing/render-app'
import { clickPath, findRow } from '../../../testing/tree-helpers'
import { POLL_INTERVAL_MS } from '../api/jobs-api'
import { EXTRACT_STARTED, INFO_MESSAGE_MS } from './extract-panel'

const extractButton = () => screen.getByRole('button', { name: 'Extract BOQ' })

async function openPlans() {
  const app = renderApp('/')
  await clickPath(app.user, ['Demo Hub', 'Tower', 'Plans'])
  await findRow('floor.dwg')
  return app
}

// Whole-app tests: generous time on a shared machine.
describe('Extract BOQ', { timeout: 20_000 }, () => {
  it('is disabled until a version is selected (not for a hub, project, folder or item)', async () => {
    const { user } = await openPlans()
    expect(extractButton()).toBeDisabled()
    await clickPath(user, ['Plans'])
    expect(extractButton()).toBeDisabled()
    await clickPath(user, ['Tower'])
    expect(extractButton()).toBeDisabled()
  })

  it('is disabled for an item, enabled for its .dwg version', async () => {
    const { user } = await openPlans()
    await clickPath(user, ['floor.dwg'])
    expect(await findRow('floor.dwg')).toHaveAttribute('aria-selected', 'true')
    expect(extractButton()).toBeDisabled()
    await clickPath(user, [/^2 /])
    await waitFor(() => expect(extractButton()).toBeEnabled())
  })

  it.each([
    ['site.plan.dwg', true],
    ['UPPER.DWG', false],
    ['README', false],
    ['sheet.pdf', false],
  ])('a version named %s → enabled %s', async (name, enabled) => {
    const { user } = await openPlans()
    await clickPath(user, [name, /^1 /])
    // The version is selected, whatever the button then says.
    await waitFor(async () => expect(await findRow(/^1 /)).toHaveAttribute('aria-selected', 'true'))
    expect(extractButton().hasAttribute('disabled')).toBe(!enabled)
  })

  it('posts the selected version and shows the info message', async () => {
    const { user } = await openPlans()
    await clickPath(user, ['floor.dwg', /^2 /])
    await user.click(extractButton())
    expect(await screen.findByRole('status')).toHaveTextContent(
      /^Extracting\.\.\.Please wait a few minutes$/,
    )
    const posts = requestsTo('/api/boq/extract', 'POST')
    expect(posts).toHaveLength(1)
    expect(posts[0]?.body).toEqual({
      fileName: 'floor.dwg',
      fileStorageId: 'urn:adsk.objects:os.object:wip.dm.prod/floor-v2.dwg',
      fileFolderId: ids.plans,
      projectId: ids.tower,
    })
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('says under the button, in one line, why it is disabled', async () => {
    const { user } = renderApp('/')
    await findRow('Demo Hub')
    expect(extractButton()).toHaveAccessibleDescription(
      'Select a version of a .dwg drawing in the tree.',
    )
    await clickPath(user, ['Demo Hub', 'Tower', 'Plans', 'floor.dwg'])
    await waitFor(() =>
      expect(extractButton()).toHaveAccessibleDescription(
        'Select a version of a drawing (expand the item to see its versions).',
      ),
    )
    await clickPath(user, ['floor.dwg', 'Level 1'])
    await waitFor(() =>
      expect(extractButton()).toHaveAccessibleDescription(
        'Select a version of a drawing: open the folder, then an item, to see its versions.',
      ),
    )
    await clickPath(user, ['Level 1', 'UPPER.DWG', /^1 /])
    await waitFor(() =>
      expect(extractButton()).toHaveAccessibleDescription(
        'Only .dwg drawings can be extracted: UPPER.DWG ends in .DWG; rename it to .dwg.',
      ),
    )
    expect(extractButton()).toBeDisabled()
    expect(
      screen.getByText(
        'Only .dwg drawings can be extracted: UPPER.DWG ends in .DWG; rename it to .dwg.',
      ),
    ).toBeVisible()
    await clickPath(user, ['UPPER.DWG', 'sheet.pdf', /^1 /])
    await waitFor(() =>
      expect(extractButton()).toHaveAccessibleDescription(
        'Only .dwg drawings can be extracted: sheet.pdf is a .pdf file.',
      ),
    )
    await clickPath(user, ['sheet.pdf', 'floor.dwg', /^2 /])
    await waitFor(() => expect(extractButton()).toBeEnabled())
    expect(extractButton()).toHaveAccessibleDescription('')
    expect(screen.queryByText(/^Only \.dwg drawings|^Select a version/)).toBeNull()
  })

  it('lets the info message go when the job it announced has ended', async () => {
    const { user } = await openPlans()
    await clickPath(user, ['floor.dwg', /^2 /])
    await user.click(extractButton())
    expect(await screen.findByRole('status')).toHaveTextContent(EXTRACT_STARTED)
    const [created] = fakeApi.jobs
    fakeApi.jobs = [succeededJob({ id: created?.id, fileName: 'floor.dwg' })]
    // Gone with the next poll, well before the few seconds are up.
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull(), {
      timeout: POLL_INTERVAL_MS * 3,
    })
    expect(INFO_MESSAGE_MS).toBeGreaterThan(POLL_INTERVAL_MS * 3)
  })

  it('lets the info message go after a few seconds while the job still runs', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    try {
      const { user } = await openPlans()
      await clickPath(user, ['floor.dwg', /^2 /])
      await user.click(extractButton())
      expect(await screen.findByRole('status')).toHaveTextContent(EXTRACT_STARTED)
      await act(async () => {
        await vi.advanceTimersByTimeAsync(INFO_MESSAGE_MS - 1000)
      })
      expect(screen.getByRole('status')).toHaveTextContent(EXTRACT_STARTED)
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1500)
      })
      expect(screen.queryByRole('status')).toBeNull()
      // The job is still queued, and the jobs panel still shows it.
      const panel = screen.getByRole('region', { name: 'Extraction jobs' })
      expect(within(panel).getByText('Queued')).toBeInTheDocument()
    } finally {
      vi.useRealTimers()
    }
  })

  it('keeps an error message (it is not a passing one)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    try {
      fakeApi.extract = () => ({ status: 429, body: 'Too many extractions waiting.' })
      const { user } = await openPlans()
      await clickPath(user, ['floor.dwg', /^2 /])
      await user.click(extractButton())
      expect(await screen.findByRole('alert')).toHaveTextContent('Too many extractions waiting.')
      await act(async () => {
        await vi.advanceTimersByTimeAsync(INFO_MESSAGE_MS * 2)
      })
      expect(screen.getByRole('alert')).toHaveTextContent('Too many extractions waiting.')
    } finally {
      vi.useRealTimers()
    }
  })

  it('takes the folder from a BIM 360 webView link too', async () => {
    const { user } = await openPlans()
    await clickPath(user, ['Level 1', 'stair.dwg', /^1 /])
    await user.click(extractButton())
    await screen.findByRole('status')
    expect(requestsTo('/api/boq/extract', 'POST')[0]?.body).toMatchObject({
      fileName: 'stair.dwg',
      fileStorageId: 'urn:adsk.objects:os.object:wip.dm.prod/stair.dwg',
      fileFolderId: ids.level1,
      projectId: ids.tower,
    })
  })

  it('shows the response body as the error message when the POST fails', async () => {
    fakeApi.extract = () => ({ status: 501, body: 'Extraction is not available yet' })
    const { user } = await openPlans()
    await clickPath(user, ['floor.dwg', /^2 /])
    await user.click(extractButton())
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toBe('Extraction is not available yet')
    expect(screen.queryByRole('status')).toBeNull()
  })

  // The specification does not say what the POST answers: any 2xx is an accepted extraction.
  it.each([
    ['{id, status}', (id: string) => ({ id, status: 'queued' })],
    ['plain text', () => 'Accepted'],
  ])(
    'shows the info message for a 2xx answered as %s, and refreshes the jobs list',
    async (_, answer) => {
      fakeApi.extract = (body) => {
        // The backend queues the job as ours does, and tells of it in its own way.
        const queued = job({ fileName: body.fileName, fileVersionNumber: 2 })
        fakeApi.jobs.unshift(queued)
        return { status: 202, body: answer(queued.id) }
      }
      const { user } = await openPlans()
      const panel = screen.getByRole('region', { name: 'Extraction jobs' })
      expect(await within(panel).findByText('No jobs yet.')).toBeInTheDocument()
      const listed = requestsTo('/api/boq/jobs').length
      await clickPath(user, ['floor.dwg', /^2 /])
      await user.click(extractButton())
      expect(await screen.findByRole('status')).toHaveTextContent(
        /^Extracting\.\.\.Please wait a few minutes$/,
      )
      expect(screen.queryByRole('alert')).toBeNull()
      expect(await within(panel).findByText('Queued')).toBeInTheDocument()
      expect(requestsTo('/api/boq/jobs').length).toBeGreaterThan(listed)
    },
  )

  it('sends the anti-forgery header with the POST', async () => {
    setCookie('XSRF-TOKEN', 'abc123')
    const { user } = await openPlans()
    await clickPath(user, ['floor.dwg', /^2 /])
    await user.click(extractButton())
    await screen.findByRole('status')
    expect(requestsTo('/api/boq/extract', 'POST')[0]?.headers.get('X-XSRF-TOKEN')).toBe('abc123')
  })
})

const unitsSelect = () => screen.getByRole('combobox', { name: 'Units' })
const drawingUnitsSelect = () =>
  screen.getByRole('combobox', { name: 'If the drawing has no units' })
const optionTexts = (select: HTMLElement) =>
  Array.from((select as HTMLSelectElement).options, (o) => o.textContent)

async function extractFloor(user: Awaited<ReturnType<typeof openPlans>>['user']) {
  await clickPath(user, ['floor.dwg', /^2 /])
  await user.click(extractButton())
  await screen.findByRole('status')
  return requestsTo('/api/boq/extract', 'POST').at(-1)?.body as Record<string, unknown>
}

const fourFields = {
  fileName: 'floor.dwg',
  fileStorageId: 'urn:adsk.objects:os.object:wip.dm.prod/floor-v2.dwg',
  fileFolderId: ids.plans,
  projectId: ids.tower,
}

describe('the choice of the bill units', { timeout: 20_000 }, () => {
  it('offers the units and the unit of a drawing without any, both by default as the drawing says', async () => {
    await openPlans()
    expect(optionTexts(unitsSelect())).toEqual([
      'By the drawing',
      'Metric (m, m²)',
      'Imperial (ft, ft²)',
      'Drawing units',
    ])
    expect(unitsSelect()).toHaveDisplayValue('By the drawing')
    expect(optionTexts(drawingUnitsSelect())).toEqual([
      'Leave as drawing units',
      'mm',
      'cm',
      'm',
      'in',
      'ft',
    ])
    expect(drawingUnitsSelect()).toHaveDisplayValue('Leave as drawing units')
  })

  it('sends units only for the choices that differ from the default', async () => {
    const { user } = await openPlans()
    await user.selectOptions(unitsSelect(), 'Imperial (ft, ft²)')
    expect(await extractFloor(user)).toEqual({ ...fourFields, units: { system: 'imperial' } })

    await user.selectOptions(drawingUnitsSelect(), 'mm')
    await user.click(extractButton())
    await waitFor(() => expect(requestsTo('/api/boq/extract', 'POST')).toHaveLength(2))
    expect(requestsTo('/api/boq/extract', 'POST')[1]?.body).toEqual({
      ...fourFields,
      units: { system: 'imperial', drawingUnits: 'mm' },
    })

    await user.selectOptions(unitsSelect(), 'By the drawing')
    await user.click(extractButton())
    await waitFor(() => expect(requestsTo('/api/boq/extract', 'POST')).toHaveLength(3))
    expect(requestsTo('/api/boq/extract', 'POST')[2]?.body).toEqual({
      ...fourFields,
      units: { drawingUnits: 'mm' },
    })

    await user.selectOptions(drawingUnitsSelect(), 'Leave as drawing units')
    await user.click(extractButton())
    await waitFor(() => expect(requestsTo('/api/boq/extract', 'POST')).toHaveLength(4))
    expect(requestsTo('/api/boq/extract', 'POST')[3]?.body).toEqual(fourFields)
  })

  it('keeps the choice across a reload', async () => {
    const first = await openPlans()
    await first.user.selectOptions(unitsSelect(), 'Drawing units')
    await first.user.selectOptions(drawingUnitsSelect(), 'ft')
    first.unmount()

    const { user } = await openPlans()
    expect(unitsSelect()).toHaveDisplayValue('Drawing units')
    expect(drawingUnitsSelect()).toHaveDisplayValue('ft')
    expect(await extractFloor(user)).toEqual({
      ...fourFields,
      units: { system: 'drawing', drawingUnits: 'ft' },
    })
  })

  it('ignores a kept value it does not know', async () => {
    localStorage.setItem(
      'boq.bill-units',
      JSON.stringify({ system: 'nautical', drawingUnits: 'cm' }),
    )
    const { user } = await openPlans()
    expect(unitsSelect()).toHaveDisplayValue('By the drawing')
    expect(drawingUnitsSelect()).toHaveDisplayValue('cm')
    expect(await extractFloor(user)).toEqual({ ...fourFields, units: { drawingUnits: 'cm' } })
  })

  it('leaves the Extract BOQ rule as it is', async () => {
    const { user } = await openPlans()
    await user.selectOptions(unitsSelect(), 'Metric (m, m²)')
    expect(extractButton()).toBeDisabled()
    await clickPath(user, ['UPPER.DWG', /^1 /])
    await waitFor(async () => expect(await findRow(/^1 /)).toHaveAttribute('aria-selected', 'true'))
    expect(extractButton()).toBeDisabled()
  })

  it('shows the units a job was asked with in the jobs list', async () => {
    const { user } = await openPlans()
    await user.selectOptions(unitsSelect(), 'Imperial (ft, ft²)')
    await user.selectOptions(drawingUnitsSelect(), 'in')
    await extractFloor(user)
    const panel = screen.getByRole('region', { name: 'Extraction jobs' })
    expect(
      await within(panel).findByText('Units: Imperial (ft, ft²); if the drawing has none: in'),
    ).toBeInTheDocument()
  })
})
