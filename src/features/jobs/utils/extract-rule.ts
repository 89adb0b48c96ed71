import type { ExtractRequest } from '../api/jobs-api'

/** The text from the last dot ('' without a dot): 'a.b.dwg' → '.dwg'. */
export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.')
  return dot < 0 ? '' : fileName.slice(dot)
}

/** Extract BOQ takes a version whose display name's extension is exactly '.dwg'. */
export function isExtractableName(fileName: string): boolean {
  return extensionOf(fileName) === '.dwg'
}

/** What is selected in the tree, as far as Extract BOQ is concerned. */
export type ExtractSelection =
  | { kind: 'hub' | 'project' | 'folder' | 'item'; name: string }
  | { kind: 'version'; request: ExtractRequest; stillArriving?: boolean }

/**
 * Why Extract BOQ cannot take the selection, in one short line; null when it can (the rule
 * above, unchanged: a version whose name ends exactly in '.dwg', and whose file is whole).
 */
export function extractBlocker(selection: ExtractSelection | null): string | null {
  if (selection === null) return 'Select a version of a .dwg drawing in the tree.'
  if (selection.kind === 'item') {
    return 'Select a version of a drawing (expand the item to see its versions).'
  }
  if (selection.kind !== 'version') {
    return `Select a version of a drawing: open the ${selection.kind}, then an item, to see its versions.`
  }
  const name = selection.request.fileName
  if (isExtractableName(name)) {
    return selection.stillArriving
      ? `${name} is still being copied into its folder: it can be extracted once the copy is whole.`
      : null
  }
  const extension = extensionOf(name)
  if (extension === '') {
    return `Only .dwg drawings can be extracted: ${name || 'this version'} has no extension.`
  }
  // Quoted when spaces would otherwise hide what differs.
  const shown = extension.trim() === extension ? extension : `"${extension}"`
  if (extension.trim().toLowerCase() === '.dwg') {
    return `Only .dwg drawings can be extracted: ${name} ends in ${shown}; rename it to .dwg.`
  }
  return `Only .dwg drawings can be extracted: ${name} is a ${shown} file.`
}
