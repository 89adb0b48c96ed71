import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi, ids } from '../../../testing/fake-api'
import { fakePricing, succeededJob, takeoffRule } from '../../../testing/fixtures'
import { renderApp } from '../../../testing/render-app'
import { ruleCell, saveRules } from '../../../testing/table-editor-helpers'

describe('the rules editor’s answers from the server', { timeout: 20_000 }, () => {
  it('stops waiting on a preview the server refused, and says why', async () => {
    fakeApi.jobs = [succeededJob({ id: 'j1' })]
    saveRules(ids.tower, [
      takeoffRule({ block: 'bloko', rate: 10 }),
      takeoffRule({ match: 'length' }),
    ])
    fakeApi.price = (_jobId, request) =>
      request.rules?.[1]?.quantity
        ? { status: 400, body: "Row 2: formula 'lenght': lenght is not a variable of length rows." }
        : {
            status: 200,
            body: {
              jobId: 'j1',
              rulesVersion: null,
              classificationVersion: null,
              priced: fakePricing(request.rules ?? []),
            },
          }
    const { user } = renderApp(`/projects/${ids.tower}/rules`)
    const preview = await screen.findByRole('region', { name: 'Preview' })
    expect(await within(preview).findByText('Total 20.00')).toBeInTheDocument()

    await user.type(ruleCell('Quantity', 2), 'lenght')
    expect(
      await within(preview).findByText(
        "Not priced: Row 2: formula 'lenght': lenght is not a variable of length rows.",
      ),
    ).toBeInTheDocument()
    expect(within(preview).queryByText('Pricing…')).not.toBeInTheDocument()
    expect(within(preview).queryByText(/^Total/)).not.toBeInTheDocument()

    // Fixed, it prices again.
    await user.clear(ruleCell('Quantity', 2))
    expect(await within(preview).findByText('Total 20.00')).toBeInTheDocument()
    expect(within(preview).queryByText(/Not priced/)).not.toBeInTheDocument()
  })
})
