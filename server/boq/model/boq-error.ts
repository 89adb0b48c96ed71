/** Why a drawing gave no BOQ. The job runner and the CLI show `message` as it is. */
const KINDS = ['not-dwg', 'corrupt', 'too-large', 'timeout', 'crashed', 'unsupported'] as const
export type BoqErrorKind = (typeof KINDS)[number]

/**
 * A drawing the engine could not turn into a BOQ; `message` is one readable sentence. It knows
 * nothing of HTTP: the code that answers a request decides what status a kind is (an upload the
 * reader refuses is a 422; a job says the sentence as its failure).
 */
export class BoqError extends Error {
  readonly kind: BoqErrorKind

  constructor(kind: BoqErrorKind, message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'BoqError'
    this.kind = kind
  }
}

export function isBoqErrorKind(value: unknown): value is BoqErrorKind {
  return (KINDS as readonly unknown[]).includes(value)
}
