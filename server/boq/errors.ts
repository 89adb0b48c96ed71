import { AppError } from '../errors.ts'

/** Why a drawing gave no BOQ. The job runner and the CLI show `message` as it is. */
export type BoqErrorKind =
  | 'not-dwg'
  | 'corrupt'
  | 'too-large'
  | 'timeout'
  | 'crashed'
  | 'unsupported'

const STATUS: Record<BoqErrorKind, number> = {
  'not-dwg': 422,
  corrupt: 422,
  'too-large': 413,
  timeout: 422,
  crashed: 422,
  unsupported: 422,
}

/** A drawing the engine could not turn into a BOQ; `message` is one readable sentence. */
export class BoqError extends AppError {
  readonly kind: BoqErrorKind

  constructor(kind: BoqErrorKind, message: string, options?: ErrorOptions) {
    super(STATUS[kind], message, options)
    this.name = 'BoqError'
    this.kind = kind
  }
}

export function isBoqErrorKind(value: unknown): value is BoqErrorKind {
  return typeof value === 'string' && value in STATUS
}
