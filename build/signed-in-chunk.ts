import type { Plugin } from 'vite'

/** Route files outside the protected layout: their lazy parts are public (/login). */
const publicRoute = /[\\/]src[\\/]routes[\\/](?!_app)/

/** A lazy part of a route file, as the router plugin splits it. */
const routeSplit = /\?tsr-split=/

/** The protected layout and the screen it opens on (/ and /home, the file selection). */
const homeScreenRoute = /[\\/]src[\\/]routes[\\/]_app(\.tsx|[\\/](index|home)\.tsx)\?/

/**
 * Puts what a signed-in visitor's first screen loads into one chunk, named `signed-in`, rather
 * than the dozen small chunks that the route splits and the guard's imports would make: it
 * compresses better and comes in one round trip.
 *
 * Found from the module graph once it is built. The roots are what the entry loads lazily: the
 * guard's imports (Query, the HTTP client) and the parts of the protected layout and of its home
 * screen; not the public routes, nor the other protected routes (they keep their own chunks and
 * load this one for what they share). The chunk is what the roots import statically, minus the
 * entry's own modules and anything a public route uses. Lazy parts of these screens (the user
 * menu's popover) keep their own chunks too.
 */
export function signedInChunk(): Plugin {
  const members = new Set<string>()
  return {
    name: 'boq:signed-in-chunk',
    apply: 'build',
    buildEnd() {
      const ids = [...this.getModuleIds()]
      const info = (id: string) => this.getModuleInfo(id)
      const staticClosure = (roots: Iterable<string>) => {
        const reached = new Set<string>()
        const pending = [...roots]
        for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
          if (reached.has(id)) continue
          reached.add(id)
          pending.push(...(info(id)?.importedIds ?? []))
        }
        return reached
      }
      const initial = staticClosure(ids.filter((id) => info(id)?.isEntry))
      const lazy = new Set([...initial].flatMap((id) => info(id)?.dynamicallyImportedIds ?? []))
      const usedInPublic = staticClosure([...lazy].filter((id) => publicRoute.test(id)))
      const roots = [...lazy].filter((id) =>
        routeSplit.test(id) ? homeScreenRoute.test(id) : !publicRoute.test(id),
      )
      members.clear()
      for (const id of staticClosure(roots)) {
        if (!initial.has(id) && !usedInPublic.has(id)) members.add(id)
      }
    },
    config: () => ({
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                {
                  name: 'signed-in',
                  test: (id: string) => members.has(id),
                  // A module shared with a public page stays out, in its own chunk.
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
