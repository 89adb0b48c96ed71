import * as v from 'valibot'

/**
 * What every saved document of a project carries (its rules, classification, bill settings):
 * version 0 is "never saved" (empty); every save gives the next version, sent back as `If-Match`
 * by the next save so that a colleague's save in between is refused (412) instead of overwritten.
 */
export const savedFields = {
  /** 0 until the first save. */
  version: v.pipe(v.number(), v.integer(), v.minValue(0)),
  /** Who saved this version (their name), null before the first save. */
  savedBy: v.nullable(v.string()),
  /** ISO time of the save, null before the first save. */
  savedAt: v.nullable(v.string()),
}
