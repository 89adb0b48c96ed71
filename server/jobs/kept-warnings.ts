import type { JobResult } from './types.ts'

/**
 * Warnings kept with a job (each cut to MAX_WARNING_LENGTH characters): the job's JSON is polled
 * every second, and the full list is under the bill in the XLSX and the CSV.
 */
export const MAX_KEPT_WARNINGS = 20
const MAX_WARNING_LENGTH = 500

/** The bill's first warnings as the job keeps them, and how many it has in all. */
export function keptWarnings(
  warnings: string[],
): Required<Pick<JobResult, 'warnings' | 'warningCount'>> {
  return {
    warnings: warnings.slice(0, MAX_KEPT_WARNINGS).map(clip),
    warningCount: warnings.length,
  }
}

function clip(warning: string): string {
  return warning.length > MAX_WARNING_LENGTH
    ? `${warning.slice(0, MAX_WARNING_LENGTH - 1)}…`
    : warning
}
