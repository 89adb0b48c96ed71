/** What the signed-in user's token may do: read the tree, write the BOQ back. */
export const INTERNAL_SCOPES = 'data:read data:write data:create'

/** What the token handed to the browser may do (as Autodesk's hubs-browser sample). */
export const PUBLIC_SCOPES = 'viewables:read'

/**
 * The Autodesk settings the aps back end needs (server/config.ts reads them from APS_CLIENT_ID,
 * APS_CLIENT_SECRET, APS_CALLBACK_URL and APS_BASE_URL).
 */
export interface ApsSettings {
  clientId: string
  clientSecret: string
  /** The callback URL registered with the Autodesk app (…/api/aps/auth/callback). */
  callbackUrl: string
  /** Every Autodesk address is derived from it (https://developer.api.autodesk.com by default). */
  baseUrl: string
}
