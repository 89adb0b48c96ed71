import type { JsonApiResource } from './types.ts'

/**
 * The title the app's tree shows for a cloud resource: a folder's (hub's, project's) `name`, else
 * its `displayName`; an item's and a version's `displayName`, else `name` (a version's `name` may
 * be its file's name at upload, its `displayName` what the person sees now). Empty when it has
 * neither.
 */
export function resourceTitle(resource: Pick<JsonApiResource, 'type' | 'attributes'>): string {
  const { name, displayName } = resource.attributes ?? {}
  const named = resource.type === 'items' || resource.type === 'versions'
  const [first, second] = named ? [displayName, name] : [name, displayName]
  if (typeof first === 'string' && first) return first
  return typeof second === 'string' ? second : ''
}
