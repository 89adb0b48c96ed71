import * as v from 'valibot'

/**
 * A search param that names something: a non-empty text, or absent. Anything else the address
 * carries (empty, a number or a list the router parsed) counts as absent: the page opens without
 * it rather than failing.
 */
export const optionalText = v.fallback(v.optional(v.pipe(v.string(), v.minLength(1))), undefined)
