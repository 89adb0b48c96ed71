import type * as v from 'valibot'
import { EXTRACT_REQUEST_FIELDS, ExtractRequestSchema, MAX_FIELD_LENGTH } from '#contract/jobs.ts'
import type { ExtractUnits } from '#contract/units.ts'
import { checkDrawingName } from '../cloud/names.ts'
import { checkedBody, fieldOf } from '../http/body.ts'
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
  const { units, ...request } = checkedBody(ExtractRequestSchema, text, {
    shape: SHAPE,
    problem: problemOf,
  })
  // The one rule for drawing names (also upload's): the BOQ is written back under this name, and
  // it reaches download headers, so invisible and direction-changing characters are refused.
  // Its reasons show the name with such characters escaped.
  checkDrawingName(request.fileName)
  return withChosenUnits(request, units)
}

type Issue = v.InferIssue<typeof ExtractRequestSchema>

/** The first problem a person should fix, in words: missing fields, then long ones, then units. */
function problemOf(issues: readonly Issue[]): string {
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
