/**
 * What the build's stand-ins for unused library parts (vite.config.ts) do when called: fail
 * loudly, naming what is missing.
 */
export function leftOut(what: string): never {
  throw new Error(`${what}: not in this build (see vite.config.ts)`)
}
