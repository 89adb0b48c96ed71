import { type Plugin, parseAst } from 'vite'
import { describe, expect, it } from 'vitest'
import { withoutKeptNames } from './without-kept-names.ts'

/** A module as esbuild's keepNames writes it: the helper, then a call after or around each function. */
const BUILT = `var __defProp = Object.defineProperty;
var __name = (target, value) => __defProp(target, "name", { value, configurable: true });
function twice(x) {
  return 2 * x;
}
__name(twice, "twice");
const inc = /* @__PURE__ */ __name((x) => x + 1, "inc");
const both = [__name(function () { return 3; }, "three"), twice];
`

function transformed(code: string, id: string): string | null {
  const plugin = withoutKeptNames('@radix-ui') as Plugin & {
    transform: (this: unknown, code: string, id: string) => { code: string } | null
  }
  const context = {
    parse: (text: string) => parseAst(text),
    error: (message: string) => {
      throw new Error(message)
    },
  }
  return plugin.transform.call(context, code, id)?.code ?? null
}

describe('withoutKeptNames', () => {
  it('blanks every kept-name call of the package, in place, and the code still runs', () => {
    const id = '/app/node_modules/@radix-ui/react-popover/dist/index.mjs'
    const code = transformed(BUILT, id)
    if (code === null) throw new Error('Not transformed')
    expect(code).toHaveLength(BUILT.length)
    expect(code.split('\n').map((line) => line.length)).toEqual(
      BUILT.split('\n').map((line) => line.length),
    )
    // Only the helper's own definition is left.
    expect(code).not.toMatch(/__name\(/)
    expect(code).toContain('var __name = ')
    const run = new Function(`${code}\nreturn [twice(4), inc(4), both[0](), inc.name]`)
    expect(run()).toEqual([8, 5, 3, 'inc'])
  })

  it('leaves other packages, and modules without the helper, as they are', () => {
    expect(transformed(BUILT, '/app/node_modules/react-dom/index.js')).toBeNull()
    expect(
      transformed('const a = 1', '/app/node_modules/@radix-ui/react-popover/dist/index.mjs'),
    ).toBeNull()
  })
})
