import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it } from 'vitest'
import { formatDateTime } from '../../lib/format-date'
import { fakeApi, ids, requestsTo } from '../../testing/fake-api'
import { succeededJob } from '../../testing/fixtures'
import { server } from '../../testing/msw-server'
import { renderApp } from '../../testing/render-app'
import { confirmImport, saveLocations } from '../../testing/table-editor-helpers'
import { clickPath } from '../../testing/tree-helpers'

const LOCATIONS_PATH = `/api/boq/projects/${ids.tower}/locations`
const page = `/projects/${ids.tower}/locations`

const row = (n: number) => screen.getByRole('row', { name: `Location ${n}` })
const layerCell = (n: number) =>
  within(row(n)).getByRole('textbox', { name: `Layer, row ${n}` }) as HTMLInputElement
// The label offers its sources as it is typed: a combobox.
const labelCell = (n: number) =>
  within(row(n)).getByRole('combobox', { name: `Label, row ${n}` }) as HTMLInputElement
const labelLayerCell = (n: number) =>
  within(row(n)).getByRole('textbox', { name: `Label layer, row ${n}` }) as HTMLInputElement

async function openLocations(path = page) {
  const app = renderApp(path)
  await screen.findByRole('heading', { name: 'Locations' })
  return app
}

describe('the locations page', { timeout: 20_000 }, () => {
  it('types a row (A-AREA, names from the text inside), saves it as version 1 with If-Match, lists it in History', async () => {
    const { user } = await openLocations()
    expect(await screen.findByText(/No locations yet/)).toBeInTheDocument()
    expect(screen.getByText(/Never saved\./)).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Add a row' }))
    // A row needs its layers; the label starts as the text inside.
    expect(labelCell(1).value).toBe('text')
    expect(layerCell(1)).toHaveAccessibleDescription(/Give the layers whose closed outlines/)
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled()
    await user.type(layerCell(1), ' A-AREA ')
    await user.click(screen.getByRole('button', { name: 'Add a row' }))
    await user.type(layerCell(2), '*-SPACE')
    await user.clear(labelCell(2))
    await user.type(labelCell(2), 'room')
    expect(layerCell(2)).toHaveAccessibleDescription(
      /The label is text .*, layer, or attribute:TAG/,
    )
    await user.clear(labelCell(2))
    await user.type(labelCell(2), 'attribute:')
    expect(layerCell(2)).toHaveAccessibleDescription(/Name the attribute/)
    await user.type(labelCell(2), 'NAME')
    await user.type(labelLayerCell(2), 'A-TAGS')
    expect(layerCell(2)).not.toHaveAttribute('aria-invalid')

    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Saved as version 1.')).toBeInTheDocument()
    const put = requestsTo(LOCATIONS_PATH, 'PUT')
    expect(put).toHaveLength(1)
    expect(put[0]?.headers.get('If-Match')).toBe('"0"')
    expect(put[0]?.body).toEqual({
      locations: [
        { layer: 'A-AREA', label: 'text' },
        { layer: '*-SPACE', label: 'attribute:NAME', labelLayer: 'A-TAGS' },
      ],
    })
    await user.click(screen.getByRole('button', { name: 'History' }))
    const popover = await screen.findByRole('dialog', { name: 'History' })
    const list = await within(popover).findByRole('list', { name: 'Saved versions' })
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      `Version 1, saved by Ada Lovelace on ${formatDateTime('2024-06-07T08:09:10.000Z')}, 2 rows (in the table)`,
    ])
  })

  it('shows the server’s 400 on the row it names', async () => {
    saveLocations(ids.tower, [{ layer: 'A-AREA', label: 'text' }])
    const { user } = await openLocations()
    await screen.findByRole('table', { name: 'Locations' })
    expect(layerCell(1).value).toBe('A-AREA')
    await user.click(screen.getByRole('button', { name: 'Add a row' }))
    await user.type(layerCell(2), 'ROOMS\\')
    server.use(
      http.put(
        `*${LOCATIONS_PATH}`,
        () =>
          new HttpResponse("Row 2: layer: 'ROOMS\\' ends with an escape (\\).", { status: 400 }),
      ),
    )
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() =>
      expect(layerCell(2)).toHaveAccessibleDescription(
        "layer: 'ROOMS\\' ends with an escape (\\).",
      ),
    )
    expect(layerCell(1)).not.toHaveAttribute('aria-invalid')
  })

  it('starts with the layers a result proposed as rooms, unsaved', async () => {
    await openLocations(`${page}?layers=${encodeURIComponent(JSON.stringify(['A-AREA', 'ROOMS']))}`)
    await screen.findByRole('table', { name: 'Locations' })
    expect([layerCell(1).value, labelCell(1).value]).toEqual(['A-AREA', 'text'])
    expect([layerCell(2).value, labelCell(2).value]).toEqual(['ROOMS', 'text'])
    expect(screen.getByText(/Unsaved changes/)).toBeInTheDocument()
    expect(requestsTo(LOCATIONS_PATH, 'PUT')).toHaveLength(0)
  })

  it('imports a file as the next version and links the exports', async () => {
    saveLocations(ids.tower, [{ layer: 'OLD', label: 'layer' }], { version: 2 })
    fakeApi.rulesFile = () => ({
      status: 200,
      body: { locations: [{ layer: 'A-AREA', label: 'text', labelLayer: 'A-TEXT' }] },
    })
    const { user } = await openLocations()
    await screen.findByRole('table', { name: 'Locations' })
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      expect.stringMatching(new RegExp(`${LOCATIONS_PATH}\\?format=csv$`)),
    )
    const input = screen.getByLabelText('Import CSV or XLSX')
    await user.upload(
      input,
      new File(['layer,label,labelLayer\nA-AREA,text,A-TEXT\n'], 'rooms.csv'),
    )
    // The question reads the file's camel-cased column as the table's.
    expect(await screen.findByText(/rooms\.csv has 1 row/)).toBeInTheDocument()
    await confirmImport(user)
    expect(await screen.findByText('Imported rooms.csv. Saved as version 3.')).toBeInTheDocument()
    expect(labelLayerCell(1).value).toBe('A-TEXT')
    expect(requestsTo(LOCATIONS_PATH, 'PUT')[0]?.headers.get('If-Match')).toBe('"2"')
  })

  it('is reached from the tree, beside Rules…: a node of a project links to its locations', async () => {
    const { user, router } = renderApp('/')
    await clickPath(user, ['Demo Hub', 'Tower'])
    await user.click(await screen.findByRole('link', { name: 'Locations…' }))
    await screen.findByRole('heading', { name: 'Locations' })
    expect(router.state.location.pathname).toBe(page)
  })

  it('previews the unsaved rows against a finished job of the project: zones per row, names, areas, warnings', async () => {
    fakeApi.jobs = [
      succeededJob({ id: 'other', projectId: 'b.elsewhere', fileName: 'other.dwg' }),
      succeededJob({ id: 'j1', fileName: 'plan.dwg', fileVersionNumber: 3 }),
    ]
    saveLocations(ids.tower, [{ layer: 'A-AREA', label: 'text' }])
    const { user } = await openLocations()
    const preview = await screen.findByRole('region', { name: 'Preview' })
    expect(within(preview).getByRole('combobox', { name: 'Preview against' })).toHaveDisplayValue(
      /^plan\.dwg, version 3/,
    )
    expect(within(preview).queryByRole('option', { name: /other\.dwg/ })).not.toBeInTheDocument()
    // Waiting is said while the drawing is read.
    expect(within(preview).getByText(/Reading the drawing for its zones/)).toBeInTheDocument()
    const perRow = await within(preview).findByRole('table', { name: 'Zones per row' })
    expect(within(perRow).getByRole('row', { name: /^Row 1\b/ })).toHaveTextContent(
      /Row 1\s*A-AREA\s*1\s*0\s*None/,
    )
    const zones = within(preview).getByRole('table', { name: 'Zones found' })
    expect(within(zones).getByRole('row', { name: /A-AREA/ })).toHaveTextContent(/A-AREA.*10.*14/)

    fakeApi.locationsPreview = (jobId, { locations }) => ({
      status: 200,
      body: {
        jobId,
        units: { length: 'm', area: 'm²' },
        zones: [
          {
            id: 'Z1',
            name: 'Unnamed zone 1',
            path: 'Unnamed zone 1',
            layer: 'ROOMS',
            area: 12.5,
            perimeter: 15,
            label: { source: 'none' },
            row: 2,
          },
        ],
        rows: locations.map((row, i) => ({
          row: i + 1,
          layer: row.layer,
          zones: i,
          unnamed: i,
          warnings: i === 1 ? ['2 outlines on zone layer ROOMS are not closed: not zones.'] : [],
        })),
        warnings: ['1 measured piece has no shape to place in a zone: unallocated.'],
      },
    })
    await user.click(screen.getByRole('button', { name: 'Add a row' }))
    await user.type(layerCell(2), 'ROOMS')
    // Each row's own warnings in its line, which they describe.
    const second = await within(preview).findByRole('row', { name: /^Row 2\b/ })
    expect(second).toHaveTextContent(/Row 2\s*ROOMS\s*1\s*1\s*2 outlines on zone layer ROOMS/)
    expect(second).toHaveAccessibleDescription(
      '2 outlines on zone layer ROOMS are not closed: not zones.',
    )
    expect(within(preview).getByRole('row', { name: /^Row 1\b/ })).toHaveTextContent(
      /Row 1\s*A-AREA\s*0\s*0\s*None/,
    )
    expect(within(preview).getByRole('row', { name: /Unnamed zone 1/ })).toHaveTextContent(
      /ROOMS.*12\.5.*15.*no label/,
    )
    expect(within(preview).getByRole('list', { name: 'Preview warnings' })).toHaveTextContent(
      /^1 measured piece has no shape to place in a zone: unallocated\.$/,
    )
    const last = requestsTo('/api/boq/jobs/j1/locations-preview', 'POST').at(-1)
    expect(last?.body).toEqual({
      locations: [
        { layer: 'A-AREA', label: 'text' },
        { layer: 'ROOMS', label: 'text' },
      ],
    })
    // Typing is debounced: not one drawing read per key.
    expect(requestsTo('/api/boq/jobs/j1/locations-preview', 'POST').length).toBeLessThan(4)
  })

  it('says why a preview is refused and stops waiting; a refusal naming a row marks it', async () => {
    fakeApi.jobs = [succeededJob({ id: 'j1' })]
    saveLocations(ids.tower, [
      { layer: 'A-AREA', label: 'text' },
      { layer: 'ROOMS\\', label: 'layer' },
    ])
    fakeApi.locationsPreview = () => ({
      status: 400,
      body: "Row 2: layer: 'ROOMS\\' ends with an escape (\\).",
    })
    await openLocations()
    const preview = await screen.findByRole('region', { name: 'Preview' })
    expect(await within(preview).findByText(/^Not previewed: Row 2: layer/)).toBeInTheDocument()
    expect(within(preview).queryByText(/Reading the drawing/)).not.toBeInTheDocument()
    await waitFor(() =>
      expect(layerCell(2)).toHaveAccessibleDescription(
        "layer: 'ROOMS\\' ends with an escape (\\).",
      ),
    )
    expect(layerCell(1)).not.toHaveAccessibleDescription(/escape/)
  })

  it('says when the drawing the preview reads is gone from the cloud', async () => {
    fakeApi.jobs = [succeededJob({ id: 'j1' })]
    saveLocations(ids.tower, [{ layer: 'A-AREA', label: 'text' }])
    fakeApi.locationsPreview = () => ({
      status: 404,
      body: 'The drawing version this job read is no longer in the cloud, so its zones cannot be found.',
    })
    await openLocations()
    const preview = await screen.findByRole('region', { name: 'Preview' })
    expect(
      await within(preview).findByText(
        'The preview failed: The drawing version this job read is no longer in the cloud, so its zones cannot be found.',
      ),
    ).toBeInTheDocument()
    expect(within(preview).queryByText(/Reading the drawing/)).not.toBeInTheDocument()
  })
})
