import { MAX_FIGURE } from '#contract/takeoff-rules.ts'

/**
 * Figures a priced bill may hold: finite and at most MAX_FIGURE either way, so that no sum
 * overflows or loses its cents and no output holds null, Infinity or NaN.
 */

/** Why a figure cannot be used, or null when it can. */
export function figureProblem(value: number): string | null {
  if (Number.isNaN(value)) return 'not a number'
  if (!Number.isFinite(value)) return 'infinite'
  if (Math.abs(value) > MAX_FIGURE) return `past ${MAX_FIGURE_TEXT} either way, the largest taken`
  return null
}

export const MAX_FIGURE_TEXT = MAX_FIGURE.toExponential().replace('e+', 'e')
