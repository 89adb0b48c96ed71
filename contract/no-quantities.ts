/**
 * How the warning that explains an empty bill starts, in its own module so the result page can
 * find it without the whole BOQ schema: the engine puts it first among the warnings.
 */
export const NO_QUANTITIES = 'No quantities measured'

/** The warning saying why a bill is empty, when the engine gave one. */
export function noQuantitiesWarning(warnings: readonly string[]): string | null {
  return warnings.find((warning) => warning.startsWith(`${NO_QUANTITIES}:`)) ?? null
}

/** The Not measured entry that stands for what is on layouts rather than in model space. */
export const PAPER_SPACE = 'paper space'
