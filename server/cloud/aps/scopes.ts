/** What the signed-in user's token may do: read the tree, write the BOQ back. */
export const INTERNAL_SCOPES = 'data:read data:write data:create'

/** What the token handed to the browser may do (as Autodesk's hubs-browser sample). */
export const PUBLIC_SCOPES = 'viewables:read'
