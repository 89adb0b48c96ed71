import type { MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import * as v from 'valibot'
import { AppError } from '../errors.ts'

/**
 * The one way a route reads a request body: `limitBody` refuses one past its size (413, before
 * it is read), and `checkedBody` parses the text read and checks it with the contract's Valibot
 * schema (400 in words). The check is a call, not a middleware, so that each route keeps its own
 * order of refusals (sign-in first, then the body, then what only the cloud knows).
 */

/** Refuses a body of more than `maxBytes` with 413 and `message`, before it is read. */
export function limitBody(maxBytes: number, message: string): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new AppError(413, message)
    },
  })
}

export type BodyIssue = v.BaseIssue<unknown>

export interface BodyCheck<S extends v.GenericSchema = v.GenericSchema> {
  /**
   * The body's shape in words (`{"projectId", "fileFolderId"}`): with it, the body must be a JSON
   * object and a refusal names the shape; without it, an empty body is `{}`.
   */
  shape?: string
  /** Where an issue is, from its path (default: the path joined by dots, or "The body"). */
  where?: (path: string[]) => string
  /** The refusal's whole words from the schema's issues, for a route that words its own. */
  problem?: (issues: readonly v.InferIssue<S>[]) => string
}

/** A JSON body checked with its schema: its output, or an AppError 400 saying what is wrong. */
export function checkedBody<S extends v.GenericSchema>(
  schema: S,
  text: string,
  check: BodyCheck<S> = {},
): v.InferOutput<S> {
  const result = v.safeParse(schema, parsedBody(text, check.shape))
  if (result.success) return result.output
  if (check.problem) throw new AppError(400, check.problem(result.issues))
  const issue = result.issues[0]
  const path = (issue.path ?? []).map((item) => String(item.key))
  const where = check.where ?? ((parts: string[]) => parts.join('.') || 'The body')
  throw new AppError(400, `${where(path)}: ${issue.message}.`)
}

/** The first key of an issue's path: the body's field it is about. */
export function fieldOf(issue: BodyIssue): unknown {
  return issue.path?.[0]?.key
}

function parsedBody(text: string, shape: string | undefined): unknown {
  if (shape === undefined) {
    if (text.trim() === '') return {}
    try {
      return JSON.parse(text)
    } catch {
      throw new AppError(400, 'The body is not JSON.')
    }
  }
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new AppError(400, `The request body must be JSON: ${shape}.`)
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError(400, `The request body must be a JSON object: ${shape}.`)
  }
  return body
}
