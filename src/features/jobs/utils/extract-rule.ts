/** The text from the last dot ('' without a dot): 'a.b.dwg' → '.dwg'. */
export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.')
  return dot < 0 ? '' : fileName.slice(dot)
}

/** Extract BOQ takes a version whose display name's extension is exactly '.dwg'. */
export function isExtractableName(fileName: string): boolean {
  return extensionOf(fileName) === '.dwg'
}
