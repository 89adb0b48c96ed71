import { describe, expect, it } from 'vitest'
import { differentDrawings, sameDrawing } from './same-drawing.ts'
import type { JobRecord } from './types.ts'

const job = (more: Partial<JobRecord>): JobRecord => ({
  id: 'j',
  status: 'succeeded',
  userId: 'ann',
  fileName: 'plan.dwg',
  projectId: 'p1',
  fileFolderId: 'f1',
  fileStorageId: 's1',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  attempts: 1,
  ...more,
})

describe('the same drawing', () => {
  it('is the same file name in the same folder of the same project, whatever the version', () => {
    const plan = job({ fileVersionNumber: 1 })
    expect(sameDrawing(plan, job({ fileStorageId: 's2', fileVersionNumber: 2 }))).toBe(true)
    expect(sameDrawing(plan, job({ fileName: 'Plan.dwg' }))).toBe(false)
    expect(sameDrawing(plan, job({ fileFolderId: 'f2' }))).toBe(false)
    expect(sameDrawing(plan, job({ projectId: 'p2' }))).toBe(false)
    expect(differentDrawings(plan, job({ fileVersionNumber: 2 }))).toBeUndefined()
  })

  it('names two different drawings by file name, and by folder when their names are the same', () => {
    expect(differentDrawings(job({}), job({ fileName: 'survey.dwg' }))).toBe(
      'These are two different drawings: plan.dwg and survey.dwg.',
    )
    const inFolder = (id: string, name: string) =>
      job({ fileFolderId: id, folder: { name, hubId: 'h', path: [id] } })
    expect(differentDrawings(inFolder('f1', 'Structure'), inFolder('f2', 'Architecture'))).toBe(
      'These are two different drawings: plan.dwg in Structure and in Architecture.',
    )
    expect(differentDrawings(job({}), job({ fileFolderId: 'f2' }))).toBe(
      'These are two different drawings: plan.dwg in two folders.',
    )
    expect(differentDrawings(job({}), job({ projectId: 'p2', fileFolderId: 'f2' }))).toBe(
      'These are two different drawings: plan.dwg in two projects.',
    )
  })
})
