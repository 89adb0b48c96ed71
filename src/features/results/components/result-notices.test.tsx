import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { BoqNotMeasured } from '#contract/boq.ts'
import { exampleBoq } from '#contract/testing/boq.ts'
import { succeededJob } from '../../../testing/fixtures'
import { ResultView } from './result-view'

function show(notMeasured: BoqNotMeasured[]) {
  const job = succeededJob({ id: 'j1', fileName: 'plan.dwg' })
  render(<ResultView job={job} boq={exampleBoq({ notMeasured })} Drawing={() => null} />)
  const notices = screen.getByRole('region', { name: 'Warnings and items not measured' })
  return {
    heading: within(notices).getByRole('heading').textContent,
    tab: screen.getByRole('tab', { name: /^Not measured/ }).textContent,
  }
}

describe('what the bill does not measure', () => {
  it('is counted the same way above the tables and on its tab: entities of kinds', () => {
    // 33 entities of 3 kinds: the tab's rows are kinds, and the notice says which it counts.
    const shown = show([
      { type: 'TEXT', count: 20, reason: 'text: no quantity' },
      { type: 'DIMENSION_LINEAR', count: 12, reason: 'annotation: no quantity' },
      { type: '3DSOLID', count: 1, reason: '3D or surface object: not measured' },
    ])
    expect(shown.heading).toBe('Not measured: 33 entities of 3 kinds')
    expect(shown.tab).toBe('Not measured (3 kinds)')
    expect(screen.getByText('TEXT (20), DIMENSION_LINEAR (12), 3DSOLID (1)')).toBeInTheDocument()
  })

  it('says one entity and one kind in the singular', () => {
    const shown = show([
      { type: '3DSOLID', count: 1, reason: '3D or surface object: not measured' },
    ])
    expect(shown.heading).toBe('Not measured: 1 entity of 1 kind')
    expect(shown.tab).toBe('Not measured (1 kind)')
  })

  it('separates thousands in both counts', () => {
    const kinds = Array.from({ length: 1200 }, (_, i) => ({
      type: `ACME_${i}`,
      count: 2,
      reason: 'custom object: not measured',
    }))
    const shown = show(kinds)
    expect(shown.heading).toBe('Not measured: 2,400 entities of 1,200 kinds')
    expect(shown.tab).toBe('Not measured (1,200 kinds)')
  })
})
