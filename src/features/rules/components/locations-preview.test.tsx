import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { LocationsPreview as Preview } from '#contract/locations-preview.ts'
import { LocationsPreview } from './locations-preview'

const OPEN = '1 outline on zone layer A-AREA is not closed: not a zone.'
const UNNAMED = '1 zone has no label inside: named Unnamed zone 1.'
const UNPLACED = '2 measured pieces have no shape to place in a zone: unallocated.'

/** Row 1 found two rooms and an outline left open, row 2 a zone without a name, row 3 nothing. */
const PREVIEW: Preview = {
  jobId: 'j1',
  units: { length: 'm', area: 'm²' },
  zones: [
    {
      id: 'Z1',
      name: 'Kitchen',
      path: 'Kitchen',
      layer: 'A-AREA',
      area: 20,
      perimeter: 18,
      label: { source: 'text' },
      row: 1,
    },
    {
      id: 'Z2',
      name: 'Living',
      path: 'Living',
      layer: 'A-AREA',
      area: 30,
      perimeter: 22,
      label: { source: 'text' },
      row: 1,
    },
    {
      id: 'Z3',
      name: 'Unnamed zone 1',
      path: 'Unnamed zone 1',
      layer: 'A-SPACE',
      area: 6,
      perimeter: 10,
      label: { source: 'none' },
      row: 2,
    },
  ],
  rows: [
    { row: 1, layer: 'A-AREA', zones: 2, unnamed: 0, warnings: [OPEN] },
    { row: 2, layer: 'A-SPACE', zones: 1, unnamed: 1, warnings: [UNNAMED] },
    { row: 3, layer: 'ROOMS', zones: 0, unnamed: 0, warnings: [] },
  ],
  warnings: [UNPLACED],
}

const cells = (row: HTMLElement) => [
  ...within(row)
    .getAllByRole('rowheader')
    .map((cell) => cell.textContent),
  ...within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent),
]

describe('the locations preview', () => {
  it('puts each row’s own warnings in its line, describing it, and the rest apart', () => {
    render(<LocationsPreview preview={PREVIEW} />)
    const perRow = screen.getByRole('table', { name: 'Zones per row' })
    const [first, second, third] = within(perRow).getAllByRole('row').slice(1)
    expect(cells(first)).toEqual(['Row 1', 'A-AREA', '2', '0', OPEN])
    expect(cells(second)).toEqual(['Row 2', 'A-SPACE', '1', '1', UNNAMED])
    expect(cells(third)).toEqual(['Row 3', 'ROOMS', '0', '0', 'None'])
    // Each row is described by its own warnings, and by no other row's.
    expect(first).toHaveAccessibleDescription(OPEN)
    expect(second).toHaveAccessibleDescription(UNNAMED)
    expect(third).not.toHaveAttribute('aria-describedby')
    expect(within(first).getByRole('list', { name: 'Row 1 warnings' })).toHaveTextContent(OPEN)
    expect(within(first).queryByText(UNNAMED)).not.toBeInTheDocument()
    // The read's warnings of no one row stay in the list below, the rows' not said again.
    const rest = screen.getByRole('list', { name: 'Preview warnings' })
    expect(
      within(rest)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([UNPLACED])
  })

  it('has no list of other warnings when every warning is a row’s', () => {
    render(<LocationsPreview preview={{ ...PREVIEW, warnings: [] }} />)
    expect(screen.queryByRole('list', { name: 'Preview warnings' })).not.toBeInTheDocument()
    expect(screen.getByRole('table', { name: 'Zones found' })).toHaveTextContent(/Unnamed zone 1/)
  })
})
