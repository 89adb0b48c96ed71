import type { Plugin } from 'vite'

/** Route files outside the protected layout: their lazy parts are public (/login). */
const publicRoute = /[\\/]src[\\/]routes[\\/](?!_app)/

/** A lazy part of a route file, as the router plugin splits it. */
const routeSplit = /\?tsr-split=/

/** The protected layout and the screen it opens on (/ and /home, the file selection). */
const homeScreenRoute = /[\\/]src[\\/]routes[\\/]_app(\.tsx|[\\/](index|home)\.tsx)\?/

/**
 * Puts what the first screens load into two chunks rather than the dozen small ones that the
 * route splits and the guard's imports would make: they compress better and come in fewer round
 * trips.
 *
 * - The entry's chunk (`index`) takes what every screen loads: what the entry imports, and what
 *   /login shares with the signed-in visitor's first screen. Left to itself, Rolldown keeps React
 *   and its own helpers apart, in a chunk that every lazy chunk imports (0.6 kB gzip more on each
 *   screen), and what /login shares with the user menu in another.
 * - `signed-in` takes what a signed-in visitor's first screen adds. The roots are what the entry
 *   loads lazily: the guard's imports (Query, the HTTP client) and the parts of the protected
 *   layout and of its home screen; not the public routes, nor the other protected routes (they
 *   keep their own chunks and load this one for what they share). The chunk is what the roots
 *   import statically, minus the entry's modules and anything a public route uses. Lazy parts of
 *   these screens (the user menu's popover) keep their own chunks too.
 *
 * Both are found from the module graph once it is built.
 */
export function screenChunks(): Plugin {
  const everyScreen = new Set<string>()
  const signedIn = new Set<string>()
  return {
    name: 'boq:screen-chunks',
    apply: 'build',
    buildEnd() {
      const ids = [...this.getModuleIds()]
      const info = (id: string) => this.getModuleInfo(id)
      /** What `roots` import, and what that imports, statically (and lazily with `lazyToo`). */
      const closure = (roots: Iterable<string>, lazyToo = false) => {
        const reached = new Set<string>()
        const pending = [...roots]
        for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
          if (reached.has(id)) continue
          reached.add(id)
          pending.push(...(info(id)?.importedIds ?? []))
          if (lazyToo) pending.push(...(info(id)?.dynamicallyImportedIds ?? []))
        }
        return reached
      }
      const initial = closure(ids.filter((id) => info(id)?.isEntry))
      const lazy = new Set([...initial].flatMap((id) => info(id)?.dynamicallyImportedIds ?? []))
      const usedInPublic = closure([...lazy].filter((id) => publicRoute.test(id)))
      const roots = [...lazy].filter((id) =>
        routeSplit.test(id) ? homeScreenRoute.test(id) : !publicRoute.test(id),
      )
      const homeScreen = closure(roots, true)
      everyScreen.clear()
      signedIn.clear()
      for (const id of initial) everyScreen.add(id)
      for (const id of usedInPublic) if (homeScreen.has(id)) everyScreen.add(id)
      for (const id of closure(roots)) {
        if (!initial.has(id) && !usedInPublic.has(id)) signedIn.add(id)
      }
    },
    config: () => ({
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                // The entry's own module is in it: Rolldown merges the group into the entry's chunk.
                { name: 'index', test: (id: string) => everyScreen.has(id) },
                {
                  name: 'signed-in',
                  test: (id: string) => signedIn.has(id),
                  // A module shared with a public page stays out, in the entry's chunk.
                  includeDependenciesRecursively: false,
                },
              ],
            },
          },
        },
      },
    }),
  }
}
