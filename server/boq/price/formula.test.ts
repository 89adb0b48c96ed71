import { describe, expect, it } from 'vitest'
import { compileFormula, type Formula, isFormulaError, MissingValue } from './formula.ts'

const anyName = () => null

function formula(source: string, known: (name: string) => string | null = anyName): Formula {
  const compiled = compileFormula(source, known)
  if (isFormulaError(compiled)) throw new Error(compiled.error)
  return compiled
}

function run(source: string, values: Record<string, number> = {}): number {
  return formula(source).evaluate((name) => {
    const value = values[name]
    if (value === undefined) throw new MissingValue(`${name} has no value`)
    return value
  })
}

describe('formulas', () => {
  it('compute with operators in the usual order', () => {
    expect(run('length * 2.4 * 2', { length: 10 })).toBeCloseTo(48)
    expect(run('1 + 2 * 3 ** 2')).toBe(19)
    expect(run('2 ** 3 ** 2')).toBe(512)
    expect(run('-(length - 1) + +2', { length: 3 })).toBe(0)
    expect(run('7 % 4')).toBe(3)
    expect(run('1e3 / .5')).toBe(2000)
  })

  it('offer round, ceil, floor, min, max, abs and sqrt', () => {
    expect(run('ceil(length / 6)', { length: 13 })).toBe(3)
    expect(run('floor(2.9) + round(2.5) + round(-2.5)')).toBe(2)
    expect(run('round(1.005, 2)')).toBe(1.01)
    expect(run('round(1234.5, -2)')).toBe(1200)
    expect(run('min(3, 1, 2) + max(4, 5)')).toBe(6)
    expect(run('abs(-2) * sqrt(16)')).toBe(8)
    expect(run('ROUND(Length)', { length: 2.4 })).toBe(2)
  })

  it('compare and choose, with numbers for truth', () => {
    expect(run('length > 3 ? 2 : 1', { length: 4 })).toBe(2)
    expect(run('length > 3 ? 2 : 1', { length: 3 })).toBe(1)
    expect(run('(count == 2) + (count != 2) + (count >= 2) + (count <= 1)', { count: 2 })).toBe(2)
  })

  it('read variables by name in lower case, other characters as _', () => {
    const f = formula('WIDTH * Door_Height + count')
    expect(f.variables).toEqual(['width', 'door_height', 'count'])
    expect(run('WIDTH * 2', { width: 0.9 })).toBeCloseTo(1.8)
  })

  it('say which formulas give the same summed over pieces as over their sum', () => {
    const additive = (source: string) => formula(source).additive
    expect(additive('length')).toBe(true)
    expect(additive('length * 2.4 * 2 + count * 0.1')).toBe(true)
    expect(additive('-length / 3')).toBe(true)
    expect(additive('length + 1')).toBe(false)
    expect(additive('ceil(length / 6)')).toBe(false)
    expect(additive('length * length')).toBe(false)
    expect(additive('2 / length')).toBe(false)
    expect(additive('length > 1 ? length : 0')).toBe(false)
  })

  it('refuse what is not arithmetic, saying why', () => {
    const error = (source: string) => {
      const compiled = compileFormula(source, anyName)
      return isFormulaError(compiled) ? compiled.error : 'compiled'
    }
    expect(error('length *')).toMatch(/^formula 'length \*': Expected expression/)
    expect(error('"text"')).toBe(`formula '"text"': "text" is not a number`)
    expect(error('length ^ 2')).toMatch(/write \*\*/)
    expect(error('eval(1)')).toMatch(/eval is not a function \(round, ceil/)
    expect(error('constructor(1)')).toMatch(/constructor is not a function/)
    expect(error('Math.max(1)')).toMatch(/that is not a function/)
    expect(error('a.b')).toMatch(/member is not allowed/)
    expect(error('[1, 2]')).toMatch(/array is not allowed/)
    expect(error('this')).toMatch(/this is not allowed/)
    expect(error('!length')).toMatch(/operator ! is not allowed/)
    expect(error('length && 1')).toMatch(/operator && is not allowed/)
    expect(error('length; 2')).toMatch(/one expression expected/)
    expect(error('round')).toMatch(/round is a function/)
    expect(error('sqrt(1, 2)')).toMatch(/sqrt takes 1 argument, not 2/)
    expect(error('round()')).toMatch(/round takes 1 or 2 arguments, not 0/)
    expect(error('max()')).toMatch(/max takes 1 or more arguments, not 0/)
    expect(error('')).toMatch(/^formula ''/)
  })

  it('refuse the variables the caller does not know', () => {
    const known = (name: string) => (name === 'length' ? null : `${name} is not measured here`)
    const compiled = compileFormula('length + area', known)
    expect(compiled).toEqual({ error: "formula 'length + area': area is not measured here" })
  })

  it('give non-finite numbers for the caller to flag', () => {
    expect(run('1 / (length - 2)', { length: 2 })).toBe(Infinity)
    expect(run('sqrt(-length)', { length: 2 })).toBeNaN()
  })

  it('let a missing value through to the caller', () => {
    expect(() => run('width')).toThrow(MissingValue)
  })
})
