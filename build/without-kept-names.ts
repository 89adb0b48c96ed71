import type { Plugin } from 'vite'

/** The helper esbuild writes into a module built with keepNames, as it writes it. */
const KEEP_NAMES_HELPER =
  'var __name = (target, value) => __defProp(target, "name", { value, configurable: true });'

interface Node {
  type: string
  start: number
  end: number
  [key: string]: unknown
}

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as Node).type === 'string'

/** Every `__name(fn, "name")` call under `node`, with the node it sits in. */
function* keptNames(node: Node, parent: Node | null = null): Generator<[Node, Node | null]> {
  const callee = node.callee
  if (node.type === 'CallExpression' && isNode(callee) && callee.name === '__name') {
    yield [node, parent]
  }
  for (const value of Object.values(node)) {
    for (const child of Array.isArray(value) ? value : [value]) {
      if (isNode(child)) yield* keptNames(child, node)
    }
  }
}

/**
 * Leaves out the function names that a package's own build kept (esbuild's keepNames: a
 * `__name(fn, "name")` around or after each function), in the production build. The minifier
 * renames the functions anyway; the calls only set `name` back, for stack traces. Radix ships
 * them: about 1.9 kB gzip of the user menu's popover.
 *
 * Each call is blanked out with spaces, so nothing moves and the source maps stay right:
 * `__name(fn, "fn");` becomes an empty statement, `__name(fn, "fn")` inside an expression `(fn)`.
 */
export function withoutKeptNames(packageName: string): Plugin {
  const escaped = packageName.replace(/[/\\^$*+?.()|[\]{}]/g, '\\$&')
  const inPackage = new RegExp(`[\\\\/]node_modules[\\\\/]${escaped}[\\\\/]`)
  return {
    name: `boq:without-kept-names-in-${packageName}`,
    apply: 'build',
    transform(code, id) {
      if (!inPackage.test(id) || !code.includes(KEEP_NAMES_HELPER)) return null
      const blanks: [number, number][] = []
      for (const [call, parent] of keptNames(this.parse(code) as unknown as Node)) {
        const [fn, name] = call.arguments as Node[]
        if (!fn || !name || code.slice(call.start, call.start + 7) !== '__name(') {
          this.error(`Unexpected __name call in ${id} at ${call.start}`)
        }
        if (parent?.type === 'ExpressionStatement') blanks.push([call.start, call.end])
        else blanks.push([call.start, call.start + 6], [fn.end, name.end])
      }
      const chars = code.split('')
      for (const [start, end] of blanks) {
        for (let i = start; i < end; i++) if (chars[i] !== '\n') chars[i] = ' '
      }
      return { code: chars.join(''), map: null }
    },
  }
}
