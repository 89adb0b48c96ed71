/**
 * Marks a step of showing a drawing on the page's performance timeline (User Timing: the browser's
 * tools and the result-page bench read them), `boq:drawing:<step>`, with what the step knows.
 */
export function markDrawing(step: string, detail?: unknown): void {
  performance.mark(`boq:drawing:${step}`, { detail })
}
