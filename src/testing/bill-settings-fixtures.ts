// Bill settings as the fake server keeps them, and factories for tests to make their own.
import {
  type BillSettings,
  type BillSettingsDocument,
  checkBillSettings,
} from '#contract/bill-settings.ts'

/** What the fake server keeps of bill settings (GET, PUT …/projects/{id}/bill-settings and below). */
export type FakeBillSettings = {
  /**
   * Every project's saved versions, oldest first; a project not here has never saved (version 0,
   * `{}`). GET answers the last, …/history all of them newest first, …/history/{n} one.
   */
  versions: Record<string, BillSettingsDocument[]>
  /**
   * What a PUT's settings are checked with: null to save them, or the server's 400 text. The
   * default checks them with the contract's schema, worded as the server words it.
   */
  check: (settings: unknown) => string | null
}

/** The server's 400: every problem, one sentence a line. */
export function serverProblems(settings: unknown): string | null {
  const checked = checkBillSettings(settings)
  if (!('problems' in checked)) return null
  return checked.problems
    .map((problem) => {
      const text = problem.charAt(0).toUpperCase() + problem.slice(1)
      return /[.!?]$/.test(text) ? text : `${text}.`
    })
    .join('\n')
}

export function defaultBillSettings(): FakeBillSettings {
  return { versions: {}, check: serverProblems }
}

/** A saved version of bill settings: EUR with 10 % preliminaries unless told otherwise. */
export function billSettingsDocument(
  overrides: Partial<BillSettingsDocument> = {},
): BillSettingsDocument {
  return {
    version: 1,
    savedBy: 'Ada Lovelace',
    savedAt: '2024-05-01T10:00:00.000Z',
    settings: eurWithPreliminaries(),
    ...overrides,
  }
}

/** Settings a surveyor would save first: a currency, a client, and preliminaries. */
export function eurWithPreliminaries(overrides: Partial<BillSettings> = {}): BillSettings {
  return {
    currency: 'EUR',
    client: 'Acme Estates',
    adjustments: [{ kind: 'percent', name: 'Preliminaries', percent: 10 }],
    ...overrides,
  }
}
