import type { Hono } from 'hono'
import type { CloudAccess } from './auth/cloud-access.ts'
import type { SecretKeys } from './auth/keys.ts'
import { createLocalAuthProvider } from './auth/local-provider.ts'
import type { AuthProvider } from './auth/types.ts'
import { createApsAuthProvider } from './cloud/aps/auth-provider.ts'
import { createApsCloudBackend } from './cloud/aps/backend.ts'
import { createApsHooks, hookCallbackUrl, hookSecretToken } from './cloud/aps/hooks.ts'
import { createApsVersions } from './cloud/aps/version-by-id.ts'
import { createLocalCloud, localCloudRoot } from './cloud/local/local-cloud.ts'
import { uploadRoutes } from './cloud/local/upload-routes.ts'
import type { CloudBackend } from './cloud/types.ts'
import type { Config } from './config.ts'
import { apsWatchSource } from './watches/aps/aps-source.ts'
import { hookEventsRoute } from './watches/aps/events-route.ts'
import type { WatchEventRoutes } from './watches/service.ts'
import type { WatchSource } from './watches/source.ts'

export interface Backends {
  auth: AuthProvider
  cloud: CloudBackend
  /** Routes only this back end has, mounted under /api/local: the local cloud's uploads. */
  localRoutes?: (access: CloudAccess) => Hono
  /** How watches learn of new versions; absent: by looking through the folders (polling). */
  watchSource?: WatchSource
  /** The routes the cloud calls to tell of new versions (Autodesk's webhooks). */
  watchEvents?: WatchEventRoutes
}

/** The one place that picks the back ends: Autodesk when config.aps is set, else local. */
export function createBackends(config: Config, keys: SecretKeys): Backends {
  if (config.aps) {
    const secret = hookSecretToken(keys.hookSecret)
    const hooks = createApsHooks(config.aps, {
      callbackUrl: hookCallbackUrl(config.aps.callbackUrl),
      secret,
    })
    const versions = createApsVersions(config.aps)
    return {
      auth: createApsAuthProvider(config.aps),
      cloud: createApsCloudBackend(config.aps),
      watchSource: apsWatchSource(hooks),
      watchEvents: (deps) => hookEventsRoute({ ...deps, versions, secret }),
    }
  }
  const cloud = createLocalCloud({
    root: localCloudRoot(config.dataDir),
    localUserName: config.userName,
    settle: { settleMs: config.settleMs },
  })
  return {
    auth: createLocalAuthProvider({
      userName: config.userName,
      codeKey: keys.localCode,
    }),
    cloud,
    localRoutes: (access) => uploadRoutes(cloud, access, config.maxFileBytes),
  }
}
