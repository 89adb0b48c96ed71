// The cloud's lists as they cross the wire between the server and the app: hubs, projects, a
// folder's contents and an item's versions, each a list of JSON:API resource objects as Autodesk's
// Data Management API answers them. The server answers a bare JSON array (as Autodesk's
// hubs-browser sample does); the app also reads the `{data: [...]}` document other backends
// answer (Autodesk's own form, with `links` and `meta` beside `data`). A list is always whole (the
// server follows every page), so a `links.next` beside `data` is not followed.
import * as v from 'valibot'

/**
 * A version's `extension.data.processState` while its file is not whole yet (Autodesk's value; the
 * local cloud gives it to a drawing still being copied in by hand): such a version is not billed.
 */
export const VERSION_NOT_WHOLE = 'NEEDS_PROCESSING'

/** The resource a relationship points to. */
const ResourceIdentifierSchema = v.looseObject({ type: v.string(), id: v.string() })

/** A link as Autodesk writes it: an object with its URL. */
const LinkSchema = v.looseObject({ href: v.string() })

/**
 * A JSON:API resource object. Only what the app reads is checked: `id`, `type`, the titles, the
 * version's number, time and author, the self and webView links, and where relationships point;
 * everything else passes through as it came (Autodesk's attributes, `meta`, other links).
 */
export const CloudResourceSchema = v.looseObject({
  id: v.string(),
  type: v.string(),
  // JSON:API allows a resource without attributes: it reads as one with none.
  attributes: v.optional(
    v.looseObject({
      name: v.optional(v.string()),
      displayName: v.optional(v.string()),
      versionNumber: v.optional(v.number()),
      createTime: v.optional(v.string()),
      lastModifiedUserName: v.optional(v.string()),
      /**
       * Autodesk's processing state of a version; `NEEDS_PROCESSING` while its file is not whole
       * yet (the local cloud says so of a drawing still being copied in by hand). Anything else
       * that is not a string reads as none.
       */
      extension: v.fallback(
        v.optional(
          v.looseObject({
            data: v.fallback(
              v.optional(
                v.looseObject({ processState: v.fallback(v.optional(v.string()), undefined) }),
              ),
              undefined,
            ),
          }),
        ),
        undefined,
      ),
    }),
    () => ({}),
  ),
  links: v.optional(
    v.looseObject({
      self: v.optional(LinkSchema),
      /** The version in Autodesk Docs; the app takes the version's folder from it. */
      webView: v.optional(LinkSchema),
    }),
  ),
  relationships: v.optional(
    v.record(
      v.string(),
      v.looseObject({
        // A to-many relationship (an array), which nothing reads, reads as none instead of
        // failing the whole list.
        data: v.fallback(v.nullish(ResourceIdentifierSchema), undefined),
      }),
    ),
  ),
})

export type CloudResource = v.InferOutput<typeof CloudResourceSchema>

/** The server's form of a list: a bare array of resources. */
const BareListSchema = v.array(CloudResourceSchema)

/** A JSON:API document whose `data` is the list (`links`, `meta` and the rest are let be). */
const DocumentListSchema = v.pipe(
  v.looseObject({ data: BareListSchema }),
  v.transform((document) => document.data),
)

/** A list in either form, read as its resources. */
export const CloudListSchema = v.union([BareListSchema, DocumentListSchema])

export type CloudList = v.InferOutput<typeof CloudListSchema>

/** An answer that is not a list of resources in either form. */
export class CloudListError extends Error {
  override name = 'CloudListError'
}

/**
 * The resources of a list answer, in either form. Throws CloudListError saying what is wrong, and
 * where (`3.id`, `data.0.attributes.name`: the first problem only), when the answer is neither
 * form or holds something that is not a resource.
 */
export function readCloudList(body: unknown): CloudList {
  const result = v.safeParse(CloudListSchema, body)
  if (result.success) return result.output
  const form = Array.isArray(body) ? BareListSchema : hasData(body) ? DocumentListSchema : null
  if (!form) {
    throw new CloudListError(
      `Expected a list of resources (a JSON array, or an object whose "data" is one), got ${kindOf(body)}.`,
    )
  }
  const [issue] = v.safeParse(form, body, { abortEarly: true }).issues ?? result.issues
  const where = v.getDotPath(issue)
  throw new CloudListError(
    `Not a list of resources: ${where ? `at ${where}: ` : ''}${issue.message}.`,
  )
}

function hasData(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'data' in body
}

function kindOf(body: unknown): string {
  if (body === null) return 'null'
  if (typeof body !== 'object') return typeof body
  return `an object without "data" (keys: ${Object.keys(body).slice(0, 5).join(', ') || 'none'})`
}
