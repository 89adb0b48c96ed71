import { describe, expect, it } from 'vitest'
import {
  checkDrawingName,
  checkFileName,
  drawingNameProblem,
  isDrawingName,
  isVisibleName,
  printable,
} from './names.ts'

describe('names BOQ writes', () => {
  it('accepts plain names in any script', () => {
    for (const name of ['plan.dwg', 'Plan été 2.dwg', '図面 1.dwg', 'a b (rev C).dwg', 'x.dwg']) {
      expect(isDrawingName(name), name).toBe(true)
    }
    expect(isVisibleName('plan BOQ.xlsx')).toBe(true)
    expect(checkFileName('plan BOQ.csv')).toBe('plan BOQ.csv')
  })

  it('refuses control, bidi and other invisible characters', () => {
    const invisible = [
      ...'\u0000\u0007\u001F\u007F\u0085\u009F',
      ...'\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069\u200E\u200F\u061C',
      ...'\u2028\u2029\u200B\u200C\u200D\u2060\uFEFF\u00AD',
      '\uD800',
    ]
    for (const ch of invisible) {
      const name = `plan${ch}.dwg`
      expect(isVisibleName(name), printable(name)).toBe(false)
      expect(drawingNameProblem(name)).toMatch(/control or invisible characters/)
    }
  })

  it('shows the hidden characters in the reason', () => {
    expect(drawingNameProblem('invoice\u202Egwd.dwg')).toBe(
      '"invoice\\u{202E}gwd.dwg" holds control or invisible characters (such as right-to-left marks): rename the file.',
    )
  })

  it('refuses paths, blank names, hidden names and names too long', () => {
    for (const name of ['', 'a/b.dwg', 'a\\b.dwg', '../x.dwg', '.', '..', '   ', ' . ', '.x.dwg']) {
      expect(isVisibleName(name), name).toBe(false)
    }
    expect(isVisibleName(`${'é'.repeat(128)}.dwg`)).toBe(false)
    expect(isVisibleName(`${'e'.repeat(251)}.dwg`)).toBe(true)
  })

  it('wants a drawing name to end in exactly .dwg, with a name before it', () => {
    for (const name of ['PLAN.DWG', 'plan.Dwg', 'plan.dxf', 'plan.dwg ', 'plan', 'plan.dwg.bak']) {
      expect(drawingNameProblem(name), name).toMatch(/"\.dwg" exactly/)
    }
    for (const name of ['.dwg', ' .dwg', '. .dwg']) {
      expect(isDrawingName(name), name).toBe(false)
    }
    expect(() => checkDrawingName('PLAN.DWG')).toThrow(
      expect.objectContaining({ status: 400, message: expect.stringMatching(/lower case/) }),
    )
  })
})
