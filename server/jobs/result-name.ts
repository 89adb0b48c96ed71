/** `plan.dwg` → `plan BOQ.xlsx`: the name the BOQ is written back under, beside the drawing. */
export function resultFileName(
  drawingName: string,
  extension: 'xlsx' | 'csv' | 'json' = 'xlsx',
): string {
  return `${drawingName.replace(/\.dwg$/i, '')} BOQ.${extension}`
}
