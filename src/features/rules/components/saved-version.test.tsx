import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi, ids, requestsTo } from '../../../testing/fake-api'
import { takeoffRule } from '../../../testing/fixtures'
import { renderApp } from '../../../testing/render-app'
import { keepEarlierRules, ruleCell, saveRules } from '../../../testing/table-editor-helpers'

const RULES_PATH = `/api/boq/projects/${ids.tower}/rules`

/** Opens a version from the History popover. */
async function openVersion(user: ReturnType<typeof renderApp>['user'], version: number) {
  await user.click(screen.getByRole('button', { name: 'History' }))
  const popover = await screen.findByRole('dialog', { name: 'History' })
  await user.click(
    await within(popover).findByRole('button', { name: new RegExp(`^Version ${version},`) }),
  )
  return screen.findByRole('region', { name: `Version ${version}` })
}

describe('a saved version from History', { timeout: 20_000 }, () => {
  it('opens read-only, and is restored as a new version after the one in the table', async () => {
    saveRules(ids.tower, [takeoffRule({ block: 'Now' })], { version: 3 })
    keepEarlierRules(
      ids.tower,
      [takeoffRule({ block: 'Old', rate: 5 }), takeoffRule({ block: 'Older' })],
      {
        version: 2,
      },
    )
    const { user } = renderApp(`/projects/${ids.tower}/rules`)
    await screen.findByRole('table', { name: 'Takeoff rules' })

    const opened = await openVersion(user, 2)
    expect(within(opened).getByRole('heading')).toHaveTextContent(
      /^Version 2, saved by Grace Hopper on .+ \(read-only\)$/,
    )
    const rows = await within(opened).findByRole('table', { name: 'Version 2 rows' })
    expect(
      within(rows)
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.textContent),
    ).toEqual(['1countOld5', '2countOlder'])
    // Read-only: nothing to type in.
    expect(within(opened).queryByRole('textbox')).not.toBeInTheDocument()
    // The editor's table is as it was.
    expect(ruleCell('Block', 1)).toHaveValue('Now')

    await user.click(within(opened).getByRole('button', { name: 'Restore as version 4' }))
    expect(await screen.findByText('Version 2 restored as version 4.')).toBeInTheDocument()
    const put = requestsTo(RULES_PATH, 'PUT')
    expect(put).toHaveLength(1)
    expect(put[0]?.headers.get('If-Match')).toBe('"3"')
    expect(put[0]?.body).toEqual({
      rules: [
        { match: 'count', block: 'Old', rate: 5 },
        { match: 'count', block: 'Older' },
      ],
    })
    expect(ruleCell('Block', 1)).toHaveValue('Old')
    expect(ruleCell('Block', 2)).toHaveValue('Older')
    expect(screen.getByText(/^Version 4, saved by Ada Lovelace/)).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Version 2' })).not.toBeInTheDocument()
    expect(fakeApi.rules[ids.tower]?.version).toBe(4)
  })

  it('says the server’s words when a version cannot be read, and Close puts it away', async () => {
    saveRules(ids.tower, [takeoffRule({ block: 'Now' })], { version: 3 })
    // Listed in the history, but its rows are not kept.
    fakeApi.earlierVersions[`rules:${ids.tower}`] = [
      { version: 1, savedBy: 'Grace Hopper', savedAt: '2024-03-01T09:00:00.000Z', rows: 4 },
    ]
    const { user } = renderApp(`/projects/${ids.tower}/rules`)
    await screen.findByRole('table', { name: 'Takeoff rules' })
    const opened = await openVersion(user, 1)
    expect(await within(opened).findByRole('alert')).toHaveTextContent(
      'There is no version 1 of the rules.',
    )
    expect(within(opened).queryByRole('button', { name: /^Restore/ })).not.toBeInTheDocument()
    await user.click(within(opened).getByRole('button', { name: 'Close' }))
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Version 1' })).not.toBeInTheDocument(),
    )
  })
})
