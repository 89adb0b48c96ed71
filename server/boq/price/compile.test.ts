import { describe, expect, it } from 'vitest'
import type { TakeoffRule } from '#contract/takeoff-rules.ts'
import { compileRules } from './compile.ts'
import { describeProblem } from './errors.ts'

function problems(...rules: TakeoffRule[]): string[] {
  return compileRules(rules).problems.map(describeProblem)
}

const item = { code: '1.1' }

describe('checking rules', () => {
  it('takes good rules without a word', () => {
    expect(
      problems(
        { match: 'count', block: 'Door*', attribute: 'TYPE=D?', visibility: 'Open*', ...item },
        {
          match: 'length',
          layer: 'Walls',
          kind: 'line, arc',
          quantity: 'length * 2.4',
          unit: 'm²',
          ...item,
        },
        { match: 'area', kind: 'hatch,closed polyline', quantity: 'perimeter + area', ...item },
        { match: 'count', quantity: 'WIDTH * count', unit: 'm', ...item },
        { match: 'length', layer: 'Dims', ignore: true },
      ),
    ).toEqual([])
  })

  it('names the row of an unknown or empty match', () => {
    expect(problems(item as TakeoffRule, { match: 'volume' as 'count', ...item })).toEqual([
      'row 1: match is empty (count, length, area or zone)',
      "row 2: unknown match 'volume' (count, length, area or zone)",
    ])
    expect(problems({ match: 'constructor' as 'count', ...item })).toEqual([
      "row 1: unknown match 'constructor' (count, length, area or zone)",
    ])
  })

  it('names the row of a broken glob', () => {
    expect(problems({ match: 'count', block: 'Door\\', ...item })).toEqual([
      "row 1: block 'Door\\' ends with an escape (\\)",
    ])
  })

  it('checks the glob of every filter when compiled, whatever its column, naming the row', () => {
    const broken = 'x\\'
    expect(
      problems(
        { match: 'count', block: broken, layer: broken, attribute: `TYPE=${broken}`, ...item },
        { match: 'count', visibility: broken, ...item },
        { match: 'length', kind: `line, ${broken}`, ...item },
      ),
    ).toEqual([
      "row 1: block 'x\\' ends with an escape (\\)",
      "row 1: layer 'x\\' ends with an escape (\\)",
      "row 1: attribute 'x\\' ends with an escape (\\)",
      "row 2: visibility 'x\\' ends with an escape (\\)",
      "row 3: kind 'x\\' ends with an escape (\\)",
    ])
  })

  it('refuses at once a kind of many stars that takes no kind, quoting only its start', () => {
    const kind = `${'*'.repeat(999)}z`
    expect(problems({ match: 'length', kind, ...item })).toEqual([
      `row 1: kind '${'*'.repeat(40)}…' is not a kind of linework (line, arc, circle, polyline, spline, ellipse, helix, multiline)`,
    ])
    expect(problems({ match: 'length', kind: `${'*'.repeat(999)}e`, ...item })).toEqual([])
  })

  it('refuses rates and quantities of no variable past the largest figure', () => {
    expect(
      problems(
        { match: 'count', rate: 1e308, ...item },
        { match: 'count', rate: -2e15, ...item },
        { match: 'count', block: 'x', ignore: true, rate: 1e16 },
        { match: 'count', quantity: '1e308', ...item },
        { match: 'count', quantity: '10 ** 400', ...item },
        { match: 'count', quantity: '0 / 0', ...item },
        { match: 'count', rate: Number.POSITIVE_INFINITY, ...item },
      ),
    ).toEqual([
      'row 1: rate 1e+308 is past 1e15 either way, the largest taken',
      'row 2: rate -2000000000000000 is past 1e15 either way, the largest taken',
      'row 3: rate 10000000000000000 is past 1e15 either way, the largest taken',
      "row 4: formula '1e308' gives 1e+308 for every piece, past 1e15 either way, the largest taken",
      "row 5: formula '10 ** 400' gives Infinity for every piece, infinite",
      "row 6: formula '0 / 0' gives NaN for every piece, not a number",
      'row 7: rate is not a number',
    ])
    expect(
      problems(
        { match: 'count', rate: 1e15, quantity: '-1e15', ...item },
        { match: 'count', rate: -1e15, quantity: 'count * 1e308', ...item },
      ),
    ).toEqual([])
  })

  it('refuses filters the match does not have', () => {
    expect(
      problems(
        { match: 'length', block: 'Door', attribute: 'A=1', visibility: 'x', ...item },
        { match: 'count', kind: 'line', ...item },
      ),
    ).toEqual([
      'row 1: block filters count rows only, not length rows',
      'row 1: attribute filters count rows only, not length rows',
      'row 1: visibility filters count rows only, not length rows',
      'row 2: kind filters length and area rows only, not count rows',
    ])
  })

  it('refuses kinds that are not measured', () => {
    expect(
      problems(
        { match: 'length', kind: 'line, lne', ...item },
        { match: 'area', kind: 'arc', ...item },
      ),
    ).toEqual([
      "row 1: kind 'lne' is not a kind of linework (line, arc, circle, polyline, spline, ellipse, helix, multiline)",
      "row 2: kind 'arc' is not a kind of area (hatch, polyline, circle, ellipse)",
    ])
    expect(problems({ match: 'length', kind: 'poly*, *arc', ...item })).toEqual([])
  })

  it('wants an attribute filter as TAG=value', () => {
    expect(problems({ match: 'count', attribute: 'D1', ...item })).toEqual([
      "row 1: attribute 'D1' must be TAG=value (for instance TYPE=D*)",
    ])
  })

  it('names unknown variables where they can be known', () => {
    expect(
      problems(
        { match: 'length', quantity: 'length * width', ...item },
        { match: 'length', quantity: 'area', ...item },
        { match: 'count', quantity: 'length', ...item },
        { match: 'area', quantity: 'perimeter * 0.1 + count', ...item },
      ),
    ).toEqual([
      "row 1: formula 'length * width': width is not a variable of length rows (count, length)",
      "row 2: formula 'area': area is not measured for length rows (count, length)",
      "row 3: formula 'length': length is not measured for count rows (count)",
    ])
  })

  it('names a broken formula', () => {
    expect(problems({ match: 'length', quantity: 'ceil(length / 6', ...item })[0]).toMatch(
      /^row 1: formula 'ceil\(length \/ 6': /,
    )
  })

  it('converts only what it can without a formula', () => {
    expect(
      problems(
        { match: 'count', unit: 'm', ...item },
        { match: 'length', unit: 'kg', ...item },
        { match: 'area', unit: 'm', ...item },
        { match: 'length', unit: 'mm', ...item },
        { match: 'area', unit: 'sq ft', ...item },
        { match: 'count', unit: 'set', ...item },
      ),
    ).toEqual([
      'row 1: a count is in nr, not m: give a quantity formula',
      "row 2: unit 'kg' is not a length: give a quantity formula, or a length unit (m, mm, ft…)",
      "row 3: unit 'm' is not an area: give a quantity formula, or an area unit (m², ft²…)",
    ])
  })

  it('wants a code or a description on items, not on ignore rows', () => {
    expect(
      problems({ match: 'count', rate: 5 }, { match: 'count', block: 'x', ignore: true }),
    ).toEqual(['row 1: an item needs a code or a description'])
  })

  it('makes groups of consecutive rows with equal filters', () => {
    const { compiled } = compileRules([
      { match: 'length', layer: 'Walls', kind: 'line,arc', code: 'plaster' },
      { match: 'length', layer: ' WALLS ', kind: 'Arc, Line', code: 'skirting' },
      { match: 'length', layer: 'Walls', code: 'other' },
      { match: 'length', layer: 'Walls', kind: 'line,arc', code: 'again' },
      { match: 'count', layer: 'Walls', code: 'count' },
    ])
    expect(compiled.groups.length.map((g) => g.rows.map((r) => r.code))).toEqual([
      ['plaster', 'skirting'],
      ['other'],
      ['again'],
    ])
    expect(compiled.groups.count.map((g) => g.rows.map((r) => r.rule))).toEqual([[5]])
  })

  it('refuses an ignore row in a group of items', () => {
    expect(
      problems(
        { match: 'length', layer: 'Dims', code: 'x' },
        { match: 'length', layer: 'dims', ignore: true },
      ),
    ).toEqual([
      'row 2: it has the same match and filters as the row above, and one of them is an ignore row: give the ignore row filters of its own',
    ])
  })

  it('refuses cells too long to be meant, deep formulas included', () => {
    const deep = `${'('.repeat(600)}length${')'.repeat(600)}`
    expect(problems({ match: 'length', quantity: deep, code: 'x'.repeat(1001) })).toEqual([
      'row 1: code is longer than 1000 characters',
      'row 1: quantity is longer than 1000 characters',
    ])
    expect(
      problems({
        match: 'length',
        quantity: `${'('.repeat(400)}length${')'.repeat(400)}`,
        ...item,
      }),
    ).toEqual([])
  })

  it('names rows as the caller counts them', () => {
    const { problems } = compileRules([{ match: 'area', unit: 'm', ...item }], (i) => i + 7)
    expect(problems[0].row).toBe(7)
  })
})
