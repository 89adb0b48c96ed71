import { join } from 'node:path'
import { buildAppWhenStale, root } from './app-build.ts'
import { startNode, superviseUntilExit } from './children.ts'

/** `npm start`: builds the app when dist/ is missing or older than its sources, then serves it. */
await buildAppWhenStale()

await superviseUntilExit([startNode([join(root, 'server', 'main.ts')])])
