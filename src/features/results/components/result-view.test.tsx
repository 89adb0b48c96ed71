import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Boq } from '#contract/boq.ts'
import { billLine, exampleBoq, pastedBlocksBoq } from '#contract/testing/boq.ts'
import { succeededJob } from '../../../testing/fixtures'
import { fakeLongTableLayout } from '../../../testing/long-table-layout'
import type { DrawingSlotProps } from './drawing-slot'
import { ResultView } from './result-view'

/** Stands in for the drawing: lists what it is told to highlight, and picks what it is asked to. */
function FakeDrawing({ highlighted, onPick }: DrawingSlotProps) {
  return (
    <div>
      <p data-testid="highlighted">{highlighted.join(' ')}</p>
      <p>{highlighted.length} highlighted</p>
      {['2A1', '4C1', '4C3', 'P00', 'FFFF'].map((handle) => (
        <button key={handle} type="button" onClick={() => onPick(handle)}>
          Pick {handle}
        </button>
      ))}
    </div>
  )
}

function show(content: Boq = exampleBoq()) {
  const job = succeededJob({ id: 'j1', fileName: 'plan.dwg', fileVersionNumber: 3 })
  const user = userEvent.setup()
  render(<ResultView job={job} boq={content} Drawing={FakeDrawing} />)
  return { user }
}

/** A cell's text as read aloud: without what is hidden from assistive technology (the arrows). */
const cellText = (cell: Element) => {
  const copy = cell.cloneNode(true) as Element
  for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove()
  return copy.textContent
}
const table = (name: string) => screen.getByRole('table', { name })
/** The first cell of every row under the header: what order the table shows. */
const firstCells = (name: string) =>
  within(table(name))
    .getAllByRole('row')
    .slice(1)
    .map((row) => cellText(row.querySelector('td, th') as Element))
const header = (name: string, column: RegExp | string) =>
  within(table(name)).getByRole('columnheader', { name: column })
const highlighted = () => screen.getByTestId('highlighted').textContent
const lineButton = (description: string) => screen.getByRole('button', { name: description })

describe('the result view', () => {
  it('says what was read, when, in which units, and offers the downloads', () => {
    show()
    expect(screen.getByRole('heading', { name: 'Bill of plan.dwg, version 3' })).toBeInTheDocument()
    expect(screen.getByText('m and m² (metric), from a drawing in millimetres')).toBeInTheDocument()
    expect(screen.getByText('plan.dwg, AutoCAD 2018 (AC1032)')).toBeInTheDocument()
    for (const [name, path] of [
      ['Download XLSX', 'result.xlsx'],
      ['Download CSV', 'result.csv'],
      ['Download JSON', 'result.json'],
    ] as const) {
      expect(screen.getByRole('link', { name })).toHaveAttribute(
        'href',
        `${window.location.origin}/api/boq/jobs/j1/${path}`,
      )
    }
  })

  it('shows the bill as a table: item, description, quantity, unit', () => {
    show()
    const rows = within(table('Bill')).getAllByRole('row')
    expect(
      within(rows[0] as HTMLElement)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Item', 'Description', 'Quantity', 'Unit'])
    const cells = (row: HTMLElement) => Array.from(row.querySelectorAll('td, th'), cellText)
    expect(rows.slice(1).map((row) => cells(row))).toEqual([
      ['A1', 'bloko', '2', 'nr'],
      ['A2', 'CIRKLO_PUNKTOJ', '8', 'nr'],
      ['B1', 'Linework on layer Tavolo 2', '12.64', 'm'],
      ['C1', 'Area on layer Tavolo 2', '1.26', 'm²'],
    ])
  })

  it('sorts by a column when its header is clicked, and the other way on a second click', async () => {
    const { user } = show()
    const quantity = header('Bill', /Quantity/)
    expect(quantity).not.toHaveAttribute('aria-sort')
    await user.click(within(quantity).getByRole('button'))
    expect(quantity).toHaveAttribute('aria-sort', 'ascending')
    expect(firstCells('Bill')).toEqual(['A1', 'A2', 'B1', 'C1'])
    await user.click(within(quantity).getByRole('button'))
    expect(quantity).toHaveAttribute('aria-sort', 'descending')
    expect(firstCells('Bill')).toEqual(['A2', 'A1', 'B1', 'C1'])

    const description = header('Bill', /Description/)
    await user.click(within(description).getByRole('button'))
    expect(description).toHaveAttribute('aria-sort', 'ascending')
    expect(header('Bill', /Quantity/)).not.toHaveAttribute('aria-sort')
    expect(firstCells('Bill')).toEqual(['A1', 'A2', 'B1', 'C1'])
  })

  it('sorts counts, lengths and areas each among their own kind, kinds in the bill’s order', async () => {
    const lines = [
      billLine({ ref: 'A1', kind: 'count', description: 'DOOR', breakdown: [{ quantity: 46 }] }),
      billLine({ ref: 'A2', kind: 'count', description: 'WINDOW', breakdown: [{ quantity: 3 }] }),
      billLine({
        ref: 'B1',
        kind: 'length',
        description: 'Walls',
        breakdown: [{ quantity: 12.5 }],
      }),
      billLine({ ref: 'B2', kind: 'length', description: 'Pipes', breakdown: [{ quantity: 250 }] }),
      billLine({ ref: 'C1', kind: 'area', description: 'Slabs', breakdown: [{ quantity: 80 }] }),
      billLine({ ref: 'C2', kind: 'area', description: 'Roofs', breakdown: [{ quantity: 1.26 }] }),
    ]
    const { user } = show(exampleBoq({ bill: lines }))
    const quantity = within(header('Bill', /Quantity/)).getByRole('button')
    await user.click(quantity)
    expect(firstCells('Bill')).toEqual(['A2', 'A1', 'B1', 'B2', 'C2', 'C1'])
    await user.click(quantity)
    expect(firstCells('Bill')).toEqual(['A1', 'A2', 'B2', 'B1', 'C1', 'C2'])
    await user.click(within(header('Bill', /Unit/)).getByRole('button'))
    expect(firstCells('Bill')).toEqual(['A1', 'A2', 'B1', 'B2', 'C1', 'C2'])
    await user.click(within(header('Bill', /Description/)).getByRole('button'))
    expect(firstCells('Bill')).toEqual(['A1', 'A2', 'B2', 'B1', 'C2', 'C1'])
  })

  it('says in place of an empty bill why there is none, and lists what was not measured', () => {
    const why =
      'No quantities measured: model space holds only what the bill does not measure: 3DSOLID × 58 (3D or surface object: not measured).'
    show(
      exampleBoq({
        bill: [],
        lengths: [],
        areas: [],
        blocks: [],
        warnings: [why, 'The drawing attaches site.dwg: its content is not in the bill.'],
        notMeasured: [{ type: '3DSOLID', count: 58, reason: '3D or surface object: not measured' }],
      }),
    )
    expect(screen.queryByRole('table', { name: 'Bill' })).toBeNull()
    expect(screen.getByText(why)).toBeInTheDocument()
    expect(screen.getByRole('tab', { name: 'Bill (0)' })).toHaveAttribute('aria-selected', 'true')
    const notices = screen.getByRole('region', { name: 'Warnings and items not measured' })
    // Said once: in the bill's place, not again among the warnings.
    expect(
      within(notices)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['The drawing attaches site.dwg: its content is not in the bill.'])
    expect(notices).toHaveTextContent('Not measured: 58 entities of 1 kind')
    expect(notices).toHaveTextContent('3DSOLID (58)')
  })

  it('says so of an empty bill kept from before the engine said why', () => {
    show(exampleBoq({ bill: [], warnings: [] }))
    expect(
      screen.getByText(
        'No quantities measured: nothing in the drawing’s model space was counted or measured.',
      ),
    ).toBeInTheDocument()
  })

  it('shows a measure too small for two decimals in figures, never as 0.00', () => {
    show(
      exampleBoq({
        bill: [billLine({ ref: 'C1', kind: 'area', breakdown: [{ quantity: 3.1573e-6 }] })],
      }),
    )
    expect(within(table('Bill')).getByRole('cell', { name: '0.0000032' })).toBeInTheDocument()
  })

  it('sorts items naturally: A2 before A10', async () => {
    const lines = Array.from({ length: 11 }, (_, i) => ({
      ...exampleBoq().bill[0],
      ref: `A${11 - i}`,
      description: `block ${11 - i}`,
    })) as Boq['bill']
    const { user } = show(exampleBoq({ bill: lines }))
    await user.click(within(header('Bill', /Item/)).getByRole('button'))
    expect(firstCells('Bill').slice(0, 3)).toEqual(['A1', 'A2', 'A3'])
    expect(firstCells('Bill').at(-1)).toBe('A11')
  })

  it('keeps the lines holding the filter’s text, breakdown included', async () => {
    const { user } = show()
    const filter = screen.getByRole('searchbox', { name: 'Filter' })
    await user.type(filter, 'tavolo 2')
    expect(firstCells('Bill')).toEqual(['B1', 'C1'])
    // A breakdown row's label counts too.
    await user.clear(filter)
    await user.type(filter, 'polylines')
    expect(firstCells('Bill')).toEqual(['B1', 'C1'])
    await user.clear(filter)
    await user.type(filter, 'window')
    expect(screen.queryByRole('table', { name: 'Bill' })).toBeNull()
    expect(screen.getByText('No row matches “window”.')).toBeInTheDocument()
  })

  it('opens a line onto its breakdown rows, and closes it', async () => {
    const { user } = show()
    const toggle = screen.getByRole('button', { name: 'B1 breakdown' })
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    expect(screen.queryByRole('rowheader', { name: /arcs/ })).toBeNull()
    await user.click(toggle)
    expect(toggle).toHaveAttribute('aria-expanded', 'true')
    const arcs = screen.getByRole('rowheader', { name: /arcs/ }).closest('tr') as HTMLElement
    expect(arcs).toHaveTextContent('arcs 1 entity3.08m')
    const polylines = screen.getByRole('rowheader', { name: /^polylines/ }).closest('tr')
    expect(polylines).toHaveTextContent('polylines 4 entities9.56m')
    // The button names the rows it shows.
    const controlled = (toggle.getAttribute('aria-controls') ?? '').split(' ')
    expect(controlled.map((id) => document.getElementById(id))).toEqual([arcs, polylines])
    await user.click(toggle)
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    expect(screen.queryByRole('rowheader', { name: /arcs/ })).toBeNull()
  })

  it('shows every warning and what was not measured at the top', () => {
    show(
      exampleBoq({
        warnings: [
          'Block *U12 could not be resolved to its dynamic block.',
          'The drawing attaches site.dwg: its content is not in the bill.',
          'The drawing has no units.',
        ],
      }),
    )
    const notices = screen.getByRole('region', { name: 'Warnings and items not measured' })
    expect(within(notices).getByRole('heading', { name: '3 warnings' })).toBeInTheDocument()
    expect(
      within(notices)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Block *U12 could not be resolved to its dynamic block.',
      'The drawing attaches site.dwg: its content is not in the bill.',
      'The drawing has no units.',
    ])
    expect(
      within(notices).getByRole('heading', { name: 'Not measured: 6 entities of 2 kinds' }),
    ).toBeInTheDocument()
    expect(notices).toHaveTextContent('TEXT (2), DIMENSION_LINEAR (4)')
  })

  it('lists many warnings up to ten, then all of them when asked', async () => {
    const warnings = Array.from({ length: 12 }, (_, i) => `Warning ${i + 1}`)
    const { user } = show(exampleBoq({ warnings, notMeasured: [] }))
    const notices = screen.getByRole('region', { name: 'Warnings and items not measured' })
    expect(within(notices).getAllByRole('listitem')).toHaveLength(10)
    expect(within(notices).queryByText(/not measured/)).toBeNull()
    await user.click(within(notices).getByRole('button', { name: 'Show all 12 warnings' }))
    expect(within(notices).getAllByRole('listitem')).toHaveLength(12)
  })

  it('shows no banner for a bill with nothing to warn about', () => {
    show(exampleBoq({ warnings: [], notMeasured: [] }))
    expect(screen.queryByRole('region', { name: 'Warnings and items not measured' })).toBeNull()
  })

  it('switches between Bill, Blocks, Lengths, Areas and Not measured', async () => {
    const { user } = show()
    const tabs = screen.getAllByRole('tab')
    expect(tabs.map((tab) => tab.textContent)).toEqual([
      'Bill (4)',
      'Priced',
      'Blocks (2)',
      'Lengths (2)',
      'Areas (1)',
      'Not measured (2 kinds)',
    ])
    expect(screen.getByRole('tab', { name: 'Bill (4)' })).toHaveAttribute('aria-selected', 'true')
    expect(screen.getByRole('tabpanel')).toContainElement(table('Bill'))

    await user.click(screen.getByRole('tab', { name: 'Lengths (2)' }))
    expect(screen.getByRole('tab', { name: 'Lengths (2)' })).toHaveAttribute(
      'aria-selected',
      'true',
    )
    expect(screen.queryByRole('table', { name: 'Bill' })).toBeNull()
    expect(
      within(table('Lengths'))
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Layer', 'Kind', 'Count', 'Length (mm)', 'Length (m)'])
    expect(within(table('Lengths')).getAllByRole('row')[2]).toHaveTextContent(
      'Tavolo 2polyline49,562.839.56',
    )
    await user.click(within(header('Lengths', /Count/)).getByRole('button'))
    await user.click(within(header('Lengths', /Count/)).getByRole('button'))
    expect(firstCells('Lengths')).toEqual(['Tavolo 2', 'Tavolo 2'])
    expect(within(table('Lengths')).getAllByRole('row')[1]).toHaveTextContent('polyline')

    // The keyboard moves along the tabs, as the tabs pattern has it.
    await user.click(screen.getByRole('tab', { name: 'Lengths (2)' }))
    await user.keyboard('{ArrowRight}')
    expect(screen.getByRole('tab', { name: 'Areas (1)' })).toHaveFocus()
    expect(within(table('Areas')).getAllByRole('row')[1]).toHaveTextContent('1,261,750.85')
    await user.keyboard('{ArrowRight}')
    expect(within(table('Not measured')).getAllByRole('row')[1]).toHaveTextContent(
      'TEXT2text: no quantity',
    )
    await user.keyboard('{ArrowRight}')
    expect(screen.getByRole('tab', { name: 'Bill (4)' })).toHaveFocus()
    expect(table('Bill')).toBeInTheDocument()
    await user.click(screen.getByRole('tab', { name: 'Blocks (2)' }))
    expect(firstCells('Blocks')).toEqual(['bloko', 'CIRKLO_PUNKTOJ'])
  })

  it('the filter works on the other tables too', async () => {
    const { user } = show()
    await user.click(screen.getByRole('tab', { name: /Not measured/ }))
    await user.type(screen.getByRole('searchbox', { name: 'Filter' }), 'annotation')
    expect(firstCells('Not measured')).toEqual(['DIMENSION_LINEAR'])
  })

  it("highlights the selected line's entities, or a breakdown row's", async () => {
    const { user } = show()
    expect(screen.getByText('0 highlighted')).toBeInTheDocument()
    await user.click(lineButton('CIRKLO_PUNKTOJ'))
    expect(lineButton('CIRKLO_PUNKTOJ')).toHaveAttribute('aria-pressed', 'true')
    expect(screen.getByText('8 highlighted')).toBeInTheDocument()
    expect(highlighted()).toBe('3B1 3B2 3B3 3B4 3B5 3B6 3B7 3B8')

    await user.click(lineButton('Linework on layer Tavolo 2'))
    expect(lineButton('CIRKLO_PUNKTOJ')).toHaveAttribute('aria-pressed', 'false')
    expect(highlighted()).toBe('4C1 4C2 4C3 4C4 4C5')

    await user.click(screen.getByRole('button', { name: 'B1 breakdown' }))
    await user.click(lineButton('arcs'))
    expect(lineButton('arcs')).toHaveAttribute('aria-pressed', 'true')
    expect(lineButton('Linework on layer Tavolo 2')).toHaveAttribute('aria-pressed', 'false')
    expect(highlighted()).toBe('4C1')

    // A second click on the selection clears it.
    await user.click(lineButton('arcs'))
    expect(screen.getByText('0 highlighted')).toBeInTheDocument()
  })

  describe('picking in the drawing', () => {
    const scrolled: Element[] = []
    beforeEach(() => {
      scrolled.length = 0
      // jsdom does not scroll; record what was asked to.
      Element.prototype.scrollIntoView = vi.fn(function (this: Element) {
        scrolled.push(this)
      })
    })
    afterEach(() => {
      // biome-ignore lint/suspicious/noExplicitAny: jsdom has none of its own to put back
      delete (Element.prototype as any).scrollIntoView
    })

    it('selects the line naming the picked entity and scrolls it into view', async () => {
      const { user } = show()
      await user.click(screen.getByRole('button', { name: 'Pick 2A1' }))
      expect(lineButton('bloko')).toHaveAttribute('aria-pressed', 'true')
      expect(highlighted()).toBe('2A1 2A2')
      expect(scrolled).toEqual([lineButton('bloko').closest('tr')])
    })

    it('goes from line to line when the entity is in two of them', async () => {
      const { user } = show()
      // 4C3 is a closed polyline: measured as linework (B1) and as area (C1).
      await user.click(screen.getByRole('button', { name: 'Pick 4C3' }))
      expect(lineButton('Linework on layer Tavolo 2')).toHaveAttribute('aria-pressed', 'true')
      await user.click(screen.getByRole('button', { name: 'Pick 4C3' }))
      expect(lineButton('Area on layer Tavolo 2')).toHaveAttribute('aria-pressed', 'true')
      expect(highlighted()).toBe('4C2 4C3 4C4 4C5')
      expect(scrolled.map((row) => row.textContent)).toEqual([
        expect.stringContaining('Linework on layer Tavolo 2'),
        expect.stringContaining('Area on layer Tavolo 2'),
      ])
    })

    it('comes back to the Bill tab, and past a filter that hid the line', async () => {
      const { user } = show()
      await user.type(screen.getByRole('searchbox', { name: 'Filter' }), 'bloko')
      await user.click(screen.getByRole('tab', { name: /Areas/ }))
      await user.click(screen.getByRole('button', { name: 'Pick 4C1' }))
      expect(screen.getByRole('tab', { name: /Bill/ })).toHaveAttribute('aria-selected', 'true')
      expect(screen.getByRole('searchbox', { name: 'Filter' })).toHaveValue('')
      expect(lineButton('Linework on layer Tavolo 2')).toHaveAttribute('aria-pressed', 'true')
      expect(scrolled).toHaveLength(1)
    })

    it('says so when the bill does not name the picked entity', async () => {
      const { user } = show()
      await user.click(lineButton('bloko'))
      await user.click(screen.getByRole('button', { name: 'Pick FFFF' }))
      expect(screen.getByRole('status')).toHaveTextContent('No line of the bill names entity FFFF.')
      expect(lineButton('bloko')).toHaveAttribute('aria-pressed', 'true')
      expect(scrolled).toEqual([])
    })
  })

  it('shows pasted blocks under one line that opens onto them, by click or keyboard', async () => {
    const { user } = show(pastedBlocksBoq(3))
    const toggle = screen.getByRole('button', { name: 'Pasted blocks: 3 lines' })
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    expect(firstCells('Bill')).toEqual(['A1', 'A2', 'A3…', 'B1', 'C1'])
    expect(
      screen.getByRole('rowheader', { name: 'Pasted blocks (3 kinds, 4 placed)' }),
    ).toBeVisible()
    expect(screen.queryByRole('button', { name: 'A$C00294820' })).not.toBeInTheDocument()
    toggle.focus()
    await user.keyboard('{Enter}')
    expect(toggle).toHaveAttribute('aria-expanded', 'true')
    expect(firstCells('Bill')).toEqual(['A1', 'A2', 'A3…', 'A3', 'A4', 'A5', 'B1', 'C1'])
    // Each block is a line like any other: selected, its references highlighted.
    await user.click(lineButton('A$C00294820'))
    expect(highlighted()).toBe('P00 P01')
    await user.keyboard(' ')
    expect(screen.getByText('0 highlighted')).toBeInTheDocument()
    await user.click(toggle)
    expect(firstCells('Bill')).toEqual(['A1', 'A2', 'A3…', 'B1', 'C1'])
    // A filter shows the group of the blocks it matches; a group of one is its line.
    await user.type(screen.getByRole('searchbox'), 'A$C0029482')
    expect(
      screen.getByRole('rowheader', { name: 'Pasted blocks (3 kinds, 4 placed)' }),
    ).toBeVisible()
    await user.type(screen.getByRole('searchbox'), '1')
    expect(firstCells('Bill')).toEqual(['A4'])
  })

  it('a pick in the drawing of a pasted block opens its group and selects its line', async () => {
    const { user } = show(pastedBlocksBoq(3))
    await user.click(screen.getByRole('button', { name: 'Pick P00' }))
    expect(screen.getByRole('button', { name: 'Pasted blocks: 3 lines' })).toHaveAttribute(
      'aria-expanded',
      'true',
    )
    expect(lineButton('A$C00294820')).toHaveAttribute('aria-pressed', 'true')
  })

  it('keeps the bill when the drawing fails, and says why in its place', () => {
    // React reports the error it caught.
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const job = succeededJob({ id: 'j1' })
    const Broken = () => {
      throw new Error('WebGL is not available.')
    }
    render(<ResultView job={job} boq={exampleBoq()} Drawing={Broken} />)
    const place = screen.getByRole('complementary', { name: 'Drawing' })
    expect(within(place).getByRole('alert')).toHaveTextContent(
      'The drawing could not be shown: WebGL is not available.',
    )
    expect(table('Bill')).toBeInTheDocument()
  })

  describe('a long bill', () => {
    /** 20,000 lines, each naming one entity of its own (line n: entity `H<n>`). */
    const longBill = () =>
      exampleBoq({
        bill: Array.from({ length: 20_000 }, (_, i) => ({
          ...exampleBoq().bill[0],
          ref: `A${i + 1}`,
          description: `block ${i + 1}`,
          breakdown: [{ ...exampleBoq().bill[0]?.breakdown[0], handles: [`H${i + 1}`] }],
        })) as Boq['bill'],
      })
    /** Picks the entity of line 19,000, far below the first lines. */
    function PickFar({ onPick }: DrawingSlotProps) {
      return (
        <button type="button" onClick={() => onPick('H19000')}>
          Pick H19000
        </button>
      )
    }
    const rowsDrawn = () => within(table('Bill')).getAllByRole('row').length - 1
    let layout: ReturnType<typeof fakeLongTableLayout>
    let scrolled: Element[] = []
    beforeEach(() => {
      layout = fakeLongTableLayout(20_000)
      scrolled = layout.scrolled
    })
    afterEach(() => layout.restore())

    it('draws only the lines in view, and sorts, filters and opens all of them', async () => {
      const { user } = show(longBill())
      expect(screen.getByRole('tab', { name: 'Bill (20000)' })).toBeInTheDocument()
      expect(rowsDrawn()).toBeGreaterThan(0)
      expect(rowsDrawn()).toBeLessThan(100)
      expect(firstCells('Bill')[0]).toBe('A1')

      await user.click(within(header('Bill', /Item/)).getByRole('button'))
      await user.click(within(header('Bill', /Item/)).getByRole('button'))
      expect(firstCells('Bill')[0]).toBe('A20000')
      expect(rowsDrawn()).toBeLessThan(100)

      await user.click(screen.getByRole('button', { name: 'A20000 breakdown' }))
      expect(screen.getByRole('button', { name: 'A20000 breakdown' })).toHaveAttribute(
        'aria-expanded',
        'true',
      )
      expect(firstCells('Bill').slice(0, 2)).toEqual(['A20000', ''])

      await user.type(screen.getByRole('searchbox', { name: 'Filter' }), 'block 1999')
      // block 1999 and block 19990 to 19999, highest first.
      expect(firstCells('Bill')).toEqual([
        'A19999',
        'A19998',
        'A19997',
        'A19996',
        'A19995',
        'A19994',
        'A19993',
        'A19992',
        'A19991',
        'A19990',
        'A1999',
      ])
    })

    it('scrolls to the line of an entity picked in the drawing', async () => {
      const user = userEvent.setup()
      const job = succeededJob({ id: 'j1' })
      render(<ResultView job={job} boq={longBill()} Drawing={PickFar} />)
      expect(screen.queryByRole('button', { name: 'block 19000' })).toBeNull()
      await user.click(screen.getByRole('button', { name: 'Pick H19000' }))
      const line = await screen.findByRole('button', { name: 'block 19000' })
      expect(line).toHaveAttribute('aria-pressed', 'true')
      expect(scrolled).toEqual([line.closest('tr')])
      expect(rowsDrawn()).toBeLessThan(100)
    })
  })
})
