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
