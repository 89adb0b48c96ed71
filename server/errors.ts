/**
 * An error a person can read: its status and plain-text message go to the client as they are
 * (server/http maps every thrown error to status + text in one place).
 */
export class AppError extends Error {
  readonly status: number

  constructor(status: number, message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'AppError'
    this.status = status
  }
}

/**
 * The server or the user has as much running as it takes at once: 429 (this user) or 503 (the
 * server), answered with Retry-After.
 */
export class BusyError extends AppError {
  readonly retryAfterSeconds: number

  constructor(status: 429 | 503, message: string, retryAfterSeconds: number) {
    super(status, message)
    this.name = 'BusyError'
    this.retryAfterSeconds = retryAfterSeconds
  }
}

/** The session can no longer be used (expired, refresh refused): the client must sign in again. */
export class SessionExpiredError extends AppError {
  constructor(message = 'Your session has expired. Please sign in again.', options?: ErrorOptions) {
    super(401, message, options)
    this.name = 'SessionExpiredError'
  }
}

/**
 * The cloud refused the access token (an upstream 401). The session layer refreshes the tokens
 * once and retries; a second refusal ends the session.
 */
export class TokenRejectedError extends AppError {
  constructor(message = 'Autodesk refused the access token.', options?: ErrorOptions) {
    super(401, message, options)
    this.name = 'TokenRejectedError'
  }
}
