import { buildApp, isBuildCurrent } from './support/build.ts'

/** Browser tests run against the production build that the server serves: build it once, when stale. */
export default async function setup(): Promise<void> {
  if (isBuildCurrent()) return
  const started = Date.now()
  await buildApp()
  console.log(`e2e: built the app in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}
