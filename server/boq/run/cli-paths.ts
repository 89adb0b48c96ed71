import { resolve } from 'node:path'

/**
 * The folder the command was typed in, which the paths it is given are relative to.
 * `npm run boq` runs the script from the package's folder and keeps the typed folder in INIT_CWD;
 * `npx boq` and `node bin.ts` run in the typed folder itself. INIT_CWD alone does not say npm ran
 * this command: a `node bin.ts` started by another npm script (a test run, a script of the user's)
 * inherits that script's INIT_CWD, so it counts only when npm's current script is `boq`.
 */
export function typedIn(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  const { INIT_CWD: typed, npm_lifecycle_event: script } = env
  return script === 'boq' && typed ? resolve(cwd, typed) : cwd
}
