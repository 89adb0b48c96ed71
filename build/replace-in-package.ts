import type { Plugin } from 'vite'

export interface Replacement {
  /** The import as the package's own module writes it, e.g. `../dnd/drag-hook`. */
  find: RegExp
  /** Absolute path of the stand-in. */
  replacement: string
}

/**
 * Replaces modules that one package imports from itself (its internals, by relative path) with
 * stand-ins, in the production build. An alias cannot: it sees the import, not who imports.
 */
export function replaceInPackage(packageName: string, replacements: Replacement[]): Plugin {
  const escaped = packageName.replace(/[/\\^$*+?.()|[\]{}]/g, '\\$&')
  const inPackage = new RegExp(`[\\\\/]node_modules[\\\\/]${escaped}[\\\\/]`)
  return {
    name: `boq:replace-in-${packageName}`,
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer || !inPackage.test(importer)) return null
      return replacements.find(({ find }) => find.test(source))?.replacement ?? null
    },
  }
}
