import { describe, expect, it } from 'vitest'
import { drawingNameProblem } from '../cloud/names.ts'
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

  it('refuses names that are not .dwg files or are paths, as the one name module says', () => {
    expect(reason({ ...good, fileName: 'plan.pdf' })).toBe(drawingNameProblem('plan.pdf'))
    expect(reason({ ...good, fileName: 'plan.pdf' })).toMatch(/Only \.dwg drawings/)
    expect(reason({ ...good, fileName: 'plan.dwg.bak' })).toMatch(/must end in "\.dwg"/)
    expect(reason({ ...good, fileName: 'PLAN.DWG' })).toMatch(/must end in "\.dwg"/)
    expect(reason({ ...good, fileName: '../../x.dwg' })).toMatch(/is a path/)
    expect(reason({ ...good, fileName: 'a\\b.dwg' })).toMatch(/is a path/)
    expect(reason({ ...good, fileName: '.dwg' })).toMatch(/no name before|starts with a dot/)
    expect(reason({ ...good, projectId: 'x'.repeat(3000) })).toMatch(/projectId is too long/)
  })

  it('refuses invisible, direction-changing and blank names, showing them escaped', () => {
    const invisible = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u
    const names = [
      ...['\u202A', '\u202B', '\u202C', '\u202D', '\u202E'],
      ...['\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C'],
      ...['\u0085', '\u2028', '\u2029', '\u0000', '\t', '\u007F', '\u200B', '\uDC00'],
    ].map((ch) => `plan${ch}x.dwg`)
    for (const fileName of names) {
      const text = reason({ ...good, fileName })
      expect(text, JSON.stringify(fileName)).toMatch(/invisible characters/)
      expect(text, JSON.stringify(fileName)).not.toMatch(invisible)
    }
    expect(reason({ ...good, fileName: 'plan\u202Egpj.dwg' })).toMatch(/"plan\\u\{202E\}gpj\.dwg"/)
    // Names of spaces only (of any width) have nothing to read.
    expect(reason({ ...good, fileName: '\u00A0 \u3000' })).toBe('fileName is missing or empty.')
    for (const fileName of [' .dwg', '   .dwg', '\u00A0\u3000.dwg']) {
      expect(reason({ ...good, fileName }), JSON.stringify(fileName)).toMatch(
        /no name before "\.dwg"|no letters or digits/,
      )
    }
  })

  it('takes the units chosen, and treats none, null or {} as no choice', () => {
    const parse = (units: unknown) => parseExtractRequest(JSON.stringify({ ...good, units }))
    expect(parse({ system: 'imperial', drawingUnits: 'mm' })).toEqual({
      ...good,
      units: { system: 'imperial', drawingUnits: 'mm' },
    })
    expect(parse({ system: 'drawing' })).toEqual({ ...good, units: { system: 'drawing' } })
    expect(parse({ drawingUnits: 'ft' })).toEqual({ ...good, units: { drawingUnits: 'ft' } })
    for (const none of [undefined, null, {}]) {
      expect(parse(none)).not.toHaveProperty('units')
    }
  })

  it('refuses any other units with a reason naming the allowed values', () => {
    const shape =
      '{"system"?: "metric" | "imperial" | "drawing", "drawingUnits"?: "mm" | "cm" | "m" | "in" | "ft"}'
    expect(reason({ ...good, units: 'metric' })).toBe(`units must be a JSON object: ${shape}.`)
    expect(reason({ ...good, units: ['metric'] })).toBe(`units must be a JSON object: ${shape}.`)
    expect(reason({ ...good, units: { system: 'metric', scale: 2 } })).toBe(
      `units takes only "system" and "drawingUnits", not "scale": ${shape}.`,
    )
    expect(reason({ ...good, units: { system: 'SI' } })).toBe(
      'units.system must be "metric", "imperial" or "drawing" (or left out for units by the drawing), not "SI".',
    )
    expect(reason({ ...good, units: { system: 'Metric' } })).toMatch(/not "Metric"/)
    expect(reason({ ...good, units: { system: null } })).toMatch(
      /units\.system must be .* not null/,
    )
    expect(reason({ ...good, units: { drawingUnits: 'km' } })).toBe(
      'units.drawingUnits must be "mm", "cm", "m", "in" or "ft" (or left out for a drawing without units to stay in its own), not "km".',
    )
    expect(reason({ ...good, units: { drawingUnits: 25.4 } })).toMatch(/not 25\.4\.$/)
    expect(reason({ ...good, units: { system: 'x'.repeat(100) } })).toMatch(/not "x{39}…\.$/)
    // What the request chose is shown with invisible characters escaped.
    expect(reason({ ...good, units: { system: 'si\u202E' } })).toMatch(/not "si\\u\{202E\}"\.$/)
    expect(reason({ ...good, units: { 'k\u2028': 1 } })).toMatch(/not "k\\u\{2028\}"/)
  })
})
