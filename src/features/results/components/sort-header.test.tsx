import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { BLOCK_COLUMNS } from '../utils/result-tables'
import { nextSort, type Sort, sortRows } from '../utils/sort-rows'
import { DataTable } from './data-table'

const ROWS = [
  { block: 'WINDOW', layer: 'A-GLAZ', count: 3, nested: 0 },
  { block: 'DOOR', layer: 'A-DOOR', count: 46, nested: 2 },
  { block: 'CHAIR', layer: 'I-FURN', count: 12, nested: 0 },
]

/** The Blocks table, sorted as its headers ask. */
function Blocks() {
  const [sort, setSort] = useState<Sort | null>(null)
  const column = BLOCK_COLUMNS.find((one) => one.id === sort?.column)
  const rows = sort && column ? sortRows(ROWS, column.sortKey, sort.direction) : ROWS
  return (
    <DataTable
      caption="Blocks"
      columns={BLOCK_COLUMNS}
      rows={rows}
      rowKey={(row) => row.block}
      sort={sort}
      onSort={(id) => setSort((current) => nextSort(current, id))}
    />
  )
}

function show() {
  const user = userEvent.setup()
  render(<Blocks />)
  const header = (name: RegExp) => screen.getByRole('columnheader', { name })
  const blocks = () =>
    screen
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.querySelector('td')?.textContent)
  return { user, header, blocks }
}

describe('a sortable column header', () => {
  it('sorts on a click anywhere in its cell, not only on its label', async () => {
    const { user, header, blocks } = show()
    const count = header(/Count/)
    // The cell itself, outside the label: its padding, or the height a taller header gives it.
    await user.click(count)
    expect(count).toHaveAttribute('aria-sort', 'ascending')
    expect(blocks()).toEqual(['WINDOW', 'CHAIR', 'DOOR'])
    await user.click(count)
    expect(count).toHaveAttribute('aria-sort', 'descending')
    expect(blocks()).toEqual(['DOOR', 'CHAIR', 'WINDOW'])
  })

  it('is one button filling the cell, named by the header, sorting once per press', async () => {
    const { user, header, blocks } = show()
    const block = header(/Block/)
    const button = within(block).getByRole('button', { name: 'Block' })
    expect(within(block).getAllByRole('button')).toEqual([button])
    expect(button).toHaveClass('w-full', 'h-full')
    // The state is the cell's, where a screen reader reads it, not the button's.
    expect(button).not.toHaveAttribute('aria-sort')

    await user.tab()
    expect(button).toHaveFocus()
    await user.keyboard('{Enter}')
    expect(block).toHaveAttribute('aria-sort', 'ascending')
    expect(blocks()).toEqual(['CHAIR', 'DOOR', 'WINDOW'])
    await user.keyboard(' ')
    expect(block).toHaveAttribute('aria-sort', 'descending')
    expect(blocks()).toEqual(['WINDOW', 'DOOR', 'CHAIR'])
    // A click on the label itself sorts once too.
    await user.click(button)
    expect(block).toHaveAttribute('aria-sort', 'ascending')
    expect(header(/Layer/)).not.toHaveAttribute('aria-sort')
  })
})
