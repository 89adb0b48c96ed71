import { describe, expect, it } from 'vitest'
import { parseExtractRequest } from './validate.ts'

const good = { fileName: 'plan.dwg', fileStorageId: 's', fileFolderId: 'f', projectId: 'p' }

function reason(body: unknown): string {
  try {
    parseExtractRequest(typeof body === 'string' ? body : JSON.stringify(body))
  } catch (error) {
    expect(error).toMatchObject({ status: 400 })
    return (error as Error).message
  }
  throw new Error('accepted')
}

describe('parseExtractRequest', () => {
  it('accepts the four fields', () => {
    expect(parseExtractRequest(JSON.stringify({ ...good, extra: 1 }))).toEqual(good)
  })

  it('names what is missing or empty', () => {
    expect(reason({ ...good, fileName: '' })).toBe('fileName is missing or empty.')
    expect(reason({ fileName: 'a.dwg', projectId: 7 })).toBe(
      'These fields are missing or empty: fileStorageId, fileFolderId, projectId.',
    )
  })

  it('refuses bodies that are not a JSON object', () => {
    expect(reason('{oops')).toMatch(/must be JSON/)
    expect(reason([good])).toMatch(/must be a JSON object/)
    expect(reason('null')).toMatch(/must be a JSON object/)
  })

  it('refuses names that are not .dwg files or are paths', () => {
    expect(reason({ ...good, fileName: 'plan.pdf' })).toBe(
      'Only .dwg drawings can be extracted; "plan.pdf" is not a .dwg file.',
    )
    expect(reason({ ...good, fileName: 'plan.dwg.bak' })).toMatch(/not a .dwg file/)
    expect(reason({ ...good, fileName: 'PLAN.DWG' })).toMatch(/not a .dwg file/)
    expect(reason({ ...good, fileName: '../../x.dwg' })).toMatch(/not a path/)
    expect(reason({ ...good, fileName: 'a\\b.dwg' })).toMatch(/not a path/)
    expect(reason({ ...good, projectId: 'x'.repeat(3000) })).toMatch(/projectId is too long/)
  })
})
