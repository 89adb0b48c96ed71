import * as v from 'valibot'
import { AppError } from '../errors.ts'

/**
 * A JSON body read with its contract schema: 400 saying what is wrong, the field by its path
 * (an empty body is `{}`).
 */
export function bodyOf<S extends v.GenericSchema>(schema: S, text: string): v.InferOutput<S> {
  let body: unknown = {}
  if (text.trim() !== '') {
    try {
      body = JSON.parse(text)
    } catch {
      throw new AppError(400, 'The body is not JSON.')
    }
  }
  const result = v.safeParse(schema, body)
  if (result.success) return result.output
  const issue = result.issues[0]
  const where = (issue.path ?? []).map((item) => String(item.key)).join('.') || 'The body'
  throw new AppError(400, `${where}: ${issue.message}.`)
}
