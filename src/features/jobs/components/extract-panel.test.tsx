import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { setCookie } from '../../../testing/cookies'
import { fakeApi, ids, requestsTo } from '../../../testing/fake-api'
import { renderApp } from '../../../testing/render-app'
import { clickPath, findRow } from '../../../testing/tree-helpers'

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
