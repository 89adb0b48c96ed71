import jsep from 'jsep'

/**
 * Quantity formulas: parsed by jsep (a parser only, no evaluator) into a tree that is checked
 * against a short list of node kinds and turned into plain closures once, so nothing a person
 * types ever reaches eval and a piece costs a few calls. Numbers only: comparisons give 1 or 0,
 * `a ? b : c` takes b when a is not 0, `**` is a power.
 */

type Fn = { arity: [number, number]; fn: (...x: number[]) => number }

/** Maps, not object literals: a name like `constructor` must not find something. */
export const FUNCTIONS = new Map<string, Fn>([
  ['round', { arity: [1, 2], fn: (x, digits = 0) => roundTo(x, digits) }],
  ['ceil', { arity: [1, 1], fn: Math.ceil }],
  ['floor', { arity: [1, 1], fn: Math.floor }],
  ['min', { arity: [1, Infinity], fn: Math.min }],
  ['max', { arity: [1, Infinity], fn: Math.max }],
  ['abs', { arity: [1, 1], fn: Math.abs }],
  ['sqrt', { arity: [1, 1], fn: Math.sqrt }],
])

const BINARY = new Map<string, (a: number, b: number) => number>([
  ['+', (a, b) => a + b],
  ['-', (a, b) => a - b],
  ['*', (a, b) => a * b],
  ['/', (a, b) => a / b],
  ['%', (a, b) => a % b],
  ['**', (a, b) => a ** b],
  ['<', (a, b) => Number(a < b)],
  ['<=', (a, b) => Number(a <= b)],
  ['>', (a, b) => Number(a > b)],
  ['>=', (a, b) => Number(a >= b)],
  ['==', (a, b) => Number(a === b)],
  ['!=', (a, b) => Number(a !== b)],
])

/** A variable's value for one piece; throws MissingValue when the piece has none. */
export type Lookup = (name: string) => number

export class MissingValue extends Error {}

export type Formula = {
  source: string
  /** The variables it reads, as written in lower case. */
  variables: string[]
  /** f(a + b) = f(a) + f(b): the same whether pieces are measured one by one or together. */
  additive: boolean
  /** Reads no variable: the same figure for every piece, known once compiled. */
  constant: boolean
  evaluate: (lookup: Lookup) => number
}

type Node = jsep.Expression
type Compiled = { run: (lookup: Lookup) => number; additive: boolean; constant: boolean }

/** The name a variable is looked up by: lower case, anything not a letter or digit as `_`. */
export function variableName(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}_$]/gu, '_')
}

/** A formula, or why it cannot be one; `known` says which variables it may read. */
export function compileFormula(
  source: string,
  known: (name: string) => string | null,
): Formula | { error: string } {
  let tree: Node
  try {
    tree = jsep(source)
  } catch (error) {
    return { error: `formula '${source}': ${(error as Error).message}` }
  }
  const variables = new Set<string>()
  try {
    const compiled = compile(tree, (name) => {
      const problem = known(name)
      if (problem) throw new FormulaError(problem)
      variables.add(name)
    })
    return {
      source,
      variables: [...variables],
      additive: compiled.additive,
      constant: compiled.constant,
      evaluate: compiled.run,
    }
  } catch (error) {
    if (error instanceof FormulaError) return { error: `formula '${source}': ${error.message}` }
    throw error
  }
}

export function isFormulaError(f: Formula | { error: string }): f is { error: string } {
  return 'error' in f
}

class FormulaError extends Error {}

function compile(node: Node, use: (name: string) => void): Compiled {
  switch (node.type) {
    case 'Literal': {
      const value = (node as jsep.Literal).value
      if (typeof value !== 'number') throw new FormulaError(`${String(node.raw)} is not a number`)
      return { run: () => value, additive: value === 0, constant: true }
    }
    case 'Identifier': {
      const name = variableName((node as jsep.Identifier).name)
      if (FUNCTIONS.has(name)) throw new FormulaError(`${name} is a function: write ${name}(…)`)
      use(name)
      return { run: (lookup) => lookup(name), additive: true, constant: false }
    }
    case 'UnaryExpression': {
      const { operator, argument } = node as jsep.UnaryExpression
      if (operator !== '-' && operator !== '+') throw unsupported(operator)
      const inner = compile(argument, use)
      const run = inner.run
      return { ...inner, run: operator === '-' ? (lookup) => -run(lookup) : run }
    }
    case 'BinaryExpression':
      return binary(node as jsep.BinaryExpression, use)
    case 'ConditionalExpression': {
      const c = node as jsep.ConditionalExpression
      const [test, yes, no] = [c.test, c.consequent, c.alternate].map((n) => compile(n, use))
      return {
        run: (lookup) => (test.run(lookup) !== 0 ? yes.run(lookup) : no.run(lookup)),
        additive: false,
        constant: test.constant && yes.constant && no.constant,
      }
    }
    case 'CallExpression':
      return call(node as jsep.CallExpression, use)
    case 'Compound':
      throw new FormulaError('one expression expected')
    default:
      throw new FormulaError(`${node.type.replace(/Expression$/, '').toLowerCase()} is not allowed`)
  }
}

function binary(node: jsep.BinaryExpression, use: (name: string) => void): Compiled {
  const operator = node.operator === '===' ? '==' : node.operator === '!==' ? '!=' : node.operator
  const op = BINARY.get(operator)
  if (!op) throw unsupported(operator)
  const left = compile(node.left, use)
  const right = compile(node.right, use)
  const [a, b] = [left.run, right.run]
  const additive =
    ((operator === '+' || operator === '-') && left.additive && right.additive) ||
    (operator === '*' &&
      ((left.additive && right.constant) || (left.constant && right.additive))) ||
    (operator === '/' && left.additive && right.constant)
  return {
    run: (lookup) => op(a(lookup), b(lookup)),
    additive,
    constant: left.constant && right.constant,
  }
}

function call(node: jsep.CallExpression, use: (name: string) => void): Compiled {
  const callee = node.callee as jsep.Identifier
  const name = callee.type === 'Identifier' ? callee.name.toLowerCase() : ''
  const known = FUNCTIONS.get(name)
  if (!known)
    throw new FormulaError(
      `${name || 'that'} is not a function (${[...FUNCTIONS.keys()].join(', ')})`,
    )
  const [least, most] = known.arity
  const count = node.arguments.length
  if (count < least || count > most) {
    const expected =
      least === most ? `${least}` : most === Infinity ? `${least} or more` : `${least} or ${most}`
    throw new FormulaError(
      `${name} takes ${expected} argument${most === 1 ? '' : 's'}, not ${count}`,
    )
  }
  const args = node.arguments.map((arg) => compile(arg, use))
  const runs = args.map((arg) => arg.run)
  const fn = known.fn
  const run =
    runs.length === 1
      ? (lookup: Lookup) => fn(runs[0](lookup))
      : (lookup: Lookup) => fn(...runs.map((r) => r(lookup)))
  // abs of an additive quantity is additive only when it has one sign: not assumed.
  return { run, additive: false, constant: args.every((arg) => arg.constant) }
}

function unsupported(operator: string): FormulaError {
  if (operator === '^') return new FormulaError('^ is not a power here: write ** (length ** 2)')
  return new FormulaError(`the operator ${operator} is not allowed`)
}

/** Rounding half away from zero to some decimals, as spreadsheets round. */
function roundTo(x: number, digits: number): number {
  const scale = 10 ** Math.trunc(digits)
  const scaled = Math.abs(x) * scale
  // A hair of tolerance so 1.005 × 100 (100.49999…) rounds up as a person expects.
  const rounded = Math.round(scaled + scaled * Number.EPSILON)
  return (Math.sign(x) * rounded) / scale
}
