import { screen, waitFor } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it } from 'vitest'
import { ids } from '../../../testing/fake-api'
import { takeoffRule } from '../../../testing/fixtures'
import { server } from '../../../testing/msw-server'
import { renderApp } from '../../../testing/render-app'
import {
  entryCell,
  ruleCell,
  ruleRow,
  saveClassification,
  saveRules,
} from '../../../testing/table-editor-helpers'

const RULES_PATH = `/api/boq/projects/${ids.tower}/rules`

/** The line under a row that says what is wrong with it (the row's marked cell names it). */
function problemLine(cell: HTMLElement): HTMLElement {
  const id = cell.getAttribute('aria-describedby') ?? ''
  const line = document.getElementById(id)
  if (!line) throw new Error('The cell is described by nothing')
  return line
}

describe('what is wrong, where it is', { timeout: 20_000 }, () => {
  it('says a row’s problem on the line under it, and sums the rows up beside Save, each a way to its row', async () => {
    saveRules(ids.tower, [
      takeoffRule({ block: 'A' }),
      takeoffRule({ block: 'B' }),
      takeoffRule({ block: 'C' }),
    ])
    server.use(
      http.put(
        `*${RULES_PATH}`,
        () =>
          new HttpResponse(
            "Row 1: broken glob '[a'.\nRow 3: formula 'lenght * 2': lenght is not a variable.",
            { status: 400 },
          ),
      ),
    )
    const { user } = renderApp(`/projects/${ids.tower}/rules`)
    await screen.findByRole('table', { name: 'Takeoff rules' })
    await user.type(ruleCell('Quantity', 3), 'lenght * 2')
    await user.click(screen.getByRole('button', { name: 'Save' }))

    await waitFor(() =>
      expect(ruleCell('Match', 3)).toHaveAccessibleDescription(
        "formula 'lenght * 2': lenght is not a variable.",
      ),
    )
    // The problem is the very next line of the table, under the row's cells.
    expect(problemLine(ruleCell('Match', 3)).closest('tr')).toBe(ruleRow(3).nextElementSibling)
    expect(problemLine(ruleCell('Match', 1)).closest('tr')).toBe(ruleRow(1).nextElementSibling)
    expect(ruleCell('Match', 2)).not.toHaveAttribute('aria-describedby')

    const save = screen.getByRole('button', { name: 'Save' })
    const summary = screen.getByText(/^2 rows need fixing:/)
    expect(summary.parentElement).toBe(save.parentElement)
    expect(summary).toHaveTextContent('2 rows need fixing: row 1, row 3')
    await user.click(screen.getByRole('button', { name: 'row 3' }))
    expect(ruleCell('Match', 3)).toHaveFocus()
    await user.click(screen.getByRole('button', { name: 'row 1' }))
    expect(ruleCell('Match', 1)).toHaveFocus()
  })

  it('sums up the classification’s rows to fix too, as they are found in the browser', async () => {
    saveClassification(ids.tower, [{ code: 'E', title: 'Electrical' }])
    const { user } = renderApp(`/projects/${ids.tower}/classification`)
    await screen.findByRole('table', { name: 'Classification' })
    expect(screen.queryByText(/need(s)? fixing/)).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Add a row' }))
    expect(screen.getByText(/^1 row needs fixing:/)).toHaveTextContent('1 row needs fixing: row 2')
    await user.click(screen.getByRole('button', { name: 'row 2' }))
    expect(entryCell('Code', 2)).toHaveFocus()
    await user.type(entryCell('Code', 2), 'F')
    await user.type(entryCell('Title', 2), 'Finishes')
    expect(screen.queryByText(/need(s)? fixing/)).not.toBeInTheDocument()
  })
})
