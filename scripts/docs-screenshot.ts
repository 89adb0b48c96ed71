/**
 * `npm run docs:screenshot`: the README's picture of the result page, docs/images/result-page.png,
 * taken afresh from the real page by the browser test that checks that page
 * (e2e/readme-screenshot.test.ts), which writes the picture only when told where.
 */
import { join } from 'node:path'
import { root } from './app-build.ts'
import { exited, spawnNode } from './children.ts'

const picture = join(root, 'docs', 'images', 'result-page.png')
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs')

const code = await exited(
  spawnNode([vitest, 'run', '--project', 'e2e', 'e2e/readme-screenshot.test.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, BOQ_README_SCREENSHOT: picture },
  }),
)
console.log(code === 0 ? `Wrote ${picture}` : 'No picture written: the test failed (see above).')
process.exitCode = code
