import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi, ids, requestsTo } from '../../../testing/fake-api'
import { takeoffRule } from '../../../testing/fixtures'
import { renderApp } from '../../../testing/render-app'
import { confirmImport, ruleCell, saveRules } from '../../../testing/table-editor-helpers'

const RULES_PATH = `/api/boq/projects/${ids.tower}/rules`
const CSV = 'match,block,rate\ncount,A,10.00\ncount,B2,\ncount,C,3\n'

describe('an import', { timeout: 20_000 }, () => {
  it('asks first, saying what the file replaces, and saves the file only once asked to', async () => {
    saveRules(ids.tower, [takeoffRule({ block: 'A', rate: 10 }), takeoffRule({ block: 'B' })], {
      version: 4,
    })
    fakeApi.rulesFile = () => ({
      status: 200,
      body: {
        rules: [
          takeoffRule({ block: 'A', rate: 10 }),
          takeoffRule({ block: 'B2' }),
          takeoffRule({ block: 'C', rate: 3 }),
        ],
      },
    })
    const { user } = renderApp(`/projects/${ids.tower}/rules`)
    await screen.findByRole('table', { name: 'Takeoff rules' })
    const input = screen.getByLabelText('Import CSV or XLSX')

    await user.upload(input, new File([CSV], 'rules.csv'))
    const question = await screen.findByRole('region', { name: 'Import rules.csv' })
    expect(
      await within(question).findByText('The table has 2 rows now; rules.csv has 3 rows.'),
    ).toBeInTheDocument()
    expect(
      within(within(question).getByRole('list', { name: 'What the file changes' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Row 2 changed: Block ‘B’ → ‘B2’', 'Row 3 added: Match count; Block C; Rate 3'])
    await user.click(within(question).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('region', { name: 'Import rules.csv' })).not.toBeInTheDocument()
    expect(requestsTo(RULES_PATH, 'PUT')).toHaveLength(0)

    // With unsaved changes, it says the import drops them.
    await user.type(ruleCell('Code', 1), 'X')
    await user.upload(input, new File([CSV], 'rules.csv'))
    expect(
      await screen.findByText('The import drops the table’s unsaved changes.'),
    ).toBeInTheDocument()
    await confirmImport(user)
    expect(await screen.findByText('Imported rules.csv. Saved as version 5.')).toBeInTheDocument()
    const put = requestsTo(RULES_PATH, 'PUT')
    expect(put).toHaveLength(1)
    expect(put[0]?.headers.get('Content-Type')).toBe('text/csv')
    expect(put[0]?.headers.get('If-Match')).toBe('"4"')
    expect(put[0]?.body).toBe(CSV)
    await waitFor(() => expect(ruleCell('Block', 3)).toHaveValue('C'))
  })
})
