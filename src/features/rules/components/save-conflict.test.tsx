import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi, ids, requestsTo } from '../../../testing/fake-api'
import { classificationEntry, takeoffRule } from '../../../testing/fixtures'
import { renderApp } from '../../../testing/render-app'
import {
  entryCell,
  ruleCell,
  saveClassification,
  saveRules,
} from '../../../testing/table-editor-helpers'

/** The colleague's changes the conflict notice lists, one line each. */
async function theirChanges() {
  const notice = await screen.findByRole('alert')
  const list = await within(notice).findByRole('list', { name: 'Their changes' })
  return within(list)
    .getAllByRole('listitem')
    .map((item) => item.textContent)
}

describe('a colleague’s save in between', { timeout: 20_000 }, () => {
  it('shows their changes row by row, against the version opened, before Keep mine saves over them', async () => {
    saveRules(ids.tower, [
      takeoffRule({ block: 'A', rate: 10 }),
      takeoffRule({ block: 'B' }),
      takeoffRule({ block: 'C' }),
    ])
    const { user } = renderApp(`/projects/${ids.tower}/rules`)
    await screen.findByRole('table', { name: 'Takeoff rules' })
    await user.type(ruleCell('Code', 2), 'M1')
    // Grace Hopper saves version 2 meanwhile: a rate changed, a row put in, a row taken out.
    saveRules(
      ids.tower,
      [
        takeoffRule({ block: 'A', rate: 12 }),
        takeoffRule({ block: 'New*', code: 'N1' }),
        takeoffRule({ block: 'B' }),
      ],
      { version: 2, savedBy: 'Grace Hopper' },
    )

    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await theirChanges()).toEqual([
      'Row 1 changed: Rate ‘10’ → ‘12’',
      'Row 2 added: Match count; Block New*; Code N1',
      'Row 3 removed: Match count; Block C',
    ])

    await user.click(screen.getByRole('button', { name: 'Keep mine' }))
    expect(await screen.findByText('Saved as version 3.')).toBeInTheDocument()
    expect(
      requestsTo(`/api/boq/projects/${ids.tower}/rules`, 'PUT').map((put) =>
        put.headers.get('If-Match'),
      ),
    ).toEqual(['"1"', '"2"'])
    expect(fakeApi.rules[ids.tower]?.rules).toEqual([
      { match: 'count', block: 'A', rate: 10 },
      { match: 'count', block: 'B', code: 'M1' },
      { match: 'count', block: 'C' },
    ])
  })

  it('shows a colleague’s changes to the classification the same way', async () => {
    saveClassification(ids.tower, [classificationEntry({ code: 'E', title: 'Electrical' })])
    const { user } = renderApp(`/projects/${ids.tower}/classification`)
    await screen.findByRole('table', { name: 'Classification' })
    await user.type(entryCell('Title', 1), ' works')
    saveClassification(ids.tower, [classificationEntry({ code: 'E', title: 'Electric' })], {
      version: 2,
      savedBy: 'Grace Hopper',
    })
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await theirChanges()).toEqual(['Row 1 changed: Title ‘Electrical’ → ‘Electric’'])
  })
})
