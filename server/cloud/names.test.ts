import { describe, expect, it } from 'vitest'
import {
  checkDrawingName,
  checkFileName,
  drawingNameProblem,
  isDrawingName,
  isVisibleName,
  nameProblem,
  printable,
  toNfc,
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
    for (const name of ['PLAN.DWG', 'plan.Dwg', 'plan.dxf', 'plan', 'plan.dwg.bak']) {
      expect(drawingNameProblem(name), name).toMatch(/"\.dwg" exactly/)
    }
    for (const name of ['.dwg', ' .dwg', '. .dwg']) {
      expect(isDrawingName(name), name).toBe(false)
    }
    expect(() => checkDrawingName('PLAN.DWG')).toThrow(
      expect.objectContaining({ status: 400, message: expect.stringMatching(/lower case/) }),
    )
  })

  it('refuses what Windows and shared drives refuse: device names, <>:"|?*, a trailing dot or space', () => {
    for (const name of ['CON.dwg', 'con', 'Nul.dwg', 'PRN.txt', 'AUX', 'COM1.dwg', 'com9.dwg']) {
      expect(nameProblem(name), name).toMatch(/is a name Windows keeps for a device/)
    }
    for (const name of ['LPT1.dwg', 'lpt5.x.dwg', 'nul.tar.gz']) {
      expect(nameProblem(name), name).toMatch(/Windows keeps for a device/)
    }
    // Only the name before the first dot is the device's.
    for (const name of ['CONSOLE.dwg', 'COM10.dwg', 'COM0.dwg', 'my CON.dwg', 'LPT.dwg', 'x.CON']) {
      expect(nameProblem(name), name).toBeUndefined()
    }
    for (const ch of '<>:"|?*') {
      expect(nameProblem(`plan${ch}.dwg`), ch).toBe(
        `"plan${ch}.dwg" holds "${ch}", which Windows and shared drives refuse in a name (< > : " / \\ | ? *): rename the file.`,
      )
    }
    expect(nameProblem('plan.')).toBe(
      '"plan." ends in a dot, which Windows removes: rename the file.',
    )
    expect(nameProblem('plan.dwg ')).toBe(
      '"plan.dwg " ends in a space, which Windows removes: rename the file.',
    )
  })

  it('refuses a drawing name whose BOQ name would pass 255 bytes, naming the limit', () => {
    expect(drawingNameProblem(`${'x'.repeat(246)}.dwg`)).toBeUndefined()
    expect(drawingNameProblem(`${'x'.repeat(247)}.dwg`)).toBe(
      `"${'x'.repeat(40)}….dwg" is too long: its BOQ, "<name> BOQ.xlsx", would have 256 bytes: a file name has at most 255 bytes (UTF-8). Shorten the name by 1 byte.`,
    )
    // Bytes, not characters: é takes 2.
    expect(drawingNameProblem(`${'é'.repeat(123)}.dwg`)).toBeUndefined()
    expect(drawingNameProblem(`${'é'.repeat(124)}.dwg`)).toMatch(/257 bytes.*by 2 bytes\.$/)
  })

  it('gives names composed (NFC), and counts the bytes of that form', () => {
    const decomposed = 'Cafe\u0301.dwg'
    expect(checkDrawingName(decomposed)).toBe('Caf\u00E9.dwg')
    expect(checkFileName('Noe\u0308l BOQ.xlsx')).toBe('No\u00EBl BOQ.xlsx')
    expect(toNfc(decomposed)).toBe('Caf\u00E9.dwg')
    // 123 é decomposed are 369 bytes, composed 246: it is the composed form that is written.
    expect(drawingNameProblem(`${'e\u0301'.repeat(123)}.dwg`)).toBeUndefined()
  })
})
