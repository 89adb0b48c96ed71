import { screen, waitFor } from '@testing-library/react'
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
