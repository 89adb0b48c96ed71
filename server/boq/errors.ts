/** Why a drawing gave no BOQ. The job runner and the CLI show `message` as it is. */
export type BoqErrorKind =
  | 'not-dwg'
  | 'corrupt'
  | 'too-large'
  | 'timeout'
  | 'crashed'
  | 'unsupported'

const KINDS: readonly BoqErrorKind[] = [
  'not-dwg',
  'corrupt',
  'too-large',
  'timeout',
  'crashed',
  'unsupported',
]

/**
 * A drawing the engine could not turn into a BOQ; `message` is one readable sentence. It knows
 * nothing of HTTP: the server's edge gives each kind its status.
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
