import * as v from 'valibot'
import {
  EXTRACT_REQUEST_FIELDS,
  ExtractRequestSchema,
  MAX_FIELD_LENGTH,
} from '../../contract/jobs.ts'
import type { ExtractUnits } from '../../contract/units.ts'
import { checkDrawingName } from '../cloud/names.ts'
import { AppError } from '../errors.ts'
import { unitsProblem, withChosenUnits } from './extract-units.ts'

/** An extraction request as the server keeps it: the units only when some were chosen. */
export interface ParsedExtractRequest {
  fileName: string
  fileStorageId: string
  fileFolderId: string
  projectId: string
  units?: ExtractUnits
}

const SHAPE = '{"fileName", "fileStorageId", "fileFolderId", "projectId"}'

/**
 * Checks POST /api/boq/extract's body against the contract's schema (what can be checked without
 * the cloud), then the drawing's name (server/cloud/names.ts: a visible name, not a path, ending
 * in exactly `.dwg`). A refusal is an AppError 400 saying what is wrong in words.
 */
export function parseExtractRequest(text: string): ParsedExtractRequest {
  const parsed = v.safeParse(ExtractRequestSchema, jsonObjectBody(text, SHAPE))
  if (!parsed.success) throw new AppError(400, problemOf(parsed.issues))
  const { units, ...request } = parsed.output
  // The one rule for drawing names (also upload's): the BOQ is written back under this name, and
  // it reaches download headers, so invisible and direction-changing characters are refused.
  // Its reasons show the name with such characters escaped.
  checkDrawingName(request.fileName)
  return withChosenUnits(request, units)
}

/** A request body that must be a JSON object; a 400 naming `shape` when it is not. */
export function jsonObjectBody(text: string, shape: string): object {
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

type Issue = v.InferIssue<typeof ExtractRequestSchema>

/** The first problem a person should fix, in words: missing fields, then long ones, then units. */
function problemOf(issues: readonly Issue[]): string {
  const fieldOf = (issue: Issue) => issue.path?.[0]?.key
  const tooLong = (issue: Issue) => issue.type === 'max_length'
  const missing = EXTRACT_REQUEST_FIELDS.filter((field) =>
    issues.some((issue) => fieldOf(issue) === field && !tooLong(issue)),
  )
  if (missing.length === 1) return `${missing[0]} is missing or empty.`
  if (missing.length > 1) return `These fields are missing or empty: ${missing.join(', ')}.`
  const long = issues.find(tooLong)
  if (long) return `${fieldOf(long)} is too long (at most ${MAX_FIELD_LENGTH} characters).`
  const units = issues.filter((issue) => fieldOf(issue) === 'units')
  if (units.length > 0) return unitsProblem(units)
  return 'The request body does not have the expected shape.'
}
