import * as v from 'valibot'
import { RULE_MATCHES } from '#contract/takeoff-rules.ts'

/**
 * A search param that names something: a non-empty text, or absent. Anything else the address
 * carries (empty, a number or a list the router parsed) counts as absent: the page opens without
 * it rather than failing.
 */
export const optionalText = v.fallback(v.optional(v.pipe(v.string(), v.minLength(1))), undefined)

/** The most rules an address may ask to start with (a selection of not-classified lines). */
export const MAX_RULES_ASKED = 200

/**
 * Rows of rules an address asks to start with, each from not-classified lines: its match and
 * filters, and a description. Anything else (not a list, too long, a row without a match the
 * rules know) counts as absent.
 */
export const rulesAsked = v.fallback(
  v.optional(
    v.pipe(
      v.array(
        v.object({
          match: v.picklist(RULE_MATCHES),
          block: optionalText,
          layer: optionalText,
          kind: optionalText,
          description: optionalText,
        }),
      ),
      v.minLength(1),
      v.maxLength(MAX_RULES_ASKED),
    ),
  ),
  undefined,
)
export type RuleAsked = NonNullable<v.InferOutput<typeof rulesAsked>>[number]

/** The most layers an address may propose as rooms. */
export const MAX_LAYERS_ASKED = 50

/**
 * Layers an address proposes as rooms (from a result's closed outlines): each a locations row
 * to start with. Anything else (not a list of names, too long) counts as absent.
 */
export const layersAsked = v.fallback(
  v.optional(
    v.pipe(
      v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(1000))),
      v.minLength(1),
      v.maxLength(MAX_LAYERS_ASKED),
    ),
  ),
  undefined,
)
