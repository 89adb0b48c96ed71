import { createHmac, randomUUID } from 'node:crypto'
import type { FakeApsState, FakeDelivery, FakeHook, FakeItem, FakeVersion } from './state.ts'

/** How long Autodesk waits for a callback's answer before it counts the delivery as failed. */
const CALLBACK_TIMEOUT_MS = 6000

/** A hook as Autodesk describes it, in a delivery and (with a few more fields) in its lists. */
export function hookFields(hook: FakeHook) {
  return {
    hookId: hook.hookId,
    tenant: hook.scope.folder,
    callbackUrl: hook.callbackUrl,
    createdBy: hook.createdBy,
    event: hook.event,
    createdDate: hook.createdDate,
    system: hook.system,
    creatorType: 'O2User',
    status: hook.status,
    scope: hook.scope,
    ...(hook.hookAttribute === undefined ? {} : { hookAttribute: hook.hookAttribute }),
    urn: `urn:adsk.webhooks:events.hook:${hook.hookId}`,
    __self__: `/systems/${hook.system}/events/${hook.event}/hooks/${hook.hookId}`,
  }
}

/**
 * Autodesk's webhook deliveries: each new version in a hooked folder (or a subfolder of it) is
 * POSTed to the hook's callback in the shape of the Webhooks API v1, signed with the hook owner's
 * secret token. Tests redeliver, forge and wait through this too.
 */
export interface FakeWebhooks {
  /** Delivers dm.version.added to every active hook whose folder holds the item, at any depth. */
  versionAdded(item: FakeItem, version: FakeVersion): void
  /** The body Autodesk sends a hook for this version; the event stamped `occurredAt` (now). */
  eventBody(hook: FakeHook, item: FakeItem, version: FakeVersion, occurredAt?: number): string
  /** The x-adsk-signature header of a body signed with this secret token. */
  sign(body: string, secret: string): string
  /** Sends a stored delivery again, byte for byte with its signature, as Autodesk's retries do. */
  redeliver(deliveryId: string): Promise<FakeDelivery>
  /** Sends a body of the test's own to the hook's callback with this signature (none: unsigned). */
  forge(hookId: string, body: string, signature?: string): Promise<FakeDelivery>
  /** Resolves once every delivery under way has its answer. */
  settled(): Promise<void>
}

export function createFakeWebhooks(state: FakeApsState): FakeWebhooks {
  const underWay = new Set<Promise<unknown>>()

  function sign(body: string, secret: string): string {
    return `sha1hash=${createHmac('sha1', secret).update(body).digest('hex')}`
  }

  function eventBody(
    hook: FakeHook,
    item: FakeItem,
    version: FakeVersion,
    occurredAt = Date.now(),
  ): string {
    // Autodesk stamps events when they happen, to the second, with a +0000 offset.
    const time = new Date(occurredAt).toISOString().replace(/\.\d{3}Z$/, '+0000')
    const ancestors = state
      .folderChain(item.folderId)
      .reverse()
      .map((f) => ({ name: f.name, urn: f.id }))
    const dot = version.name.lastIndexOf('.')
    const object = state.objects.get(version.storageId)
    return JSON.stringify({
      version: '1.0',
      resourceUrn: version.id,
      hook: hookFields(hook),
      payload: {
        ext: dot > 0 ? version.name.slice(dot + 1) : '',
        modifiedTime: time,
        createdTime: time,
        creator: state.user.id,
        modifiedBy: state.user.id,
        lineageUrn: item.id,
        sizeInBytes: object?.bytes?.byteLength ?? 0,
        hidden: item.hidden,
        indexable: true,
        source: version.id,
        version: String(version.number),
        user_info: { id: state.user.id },
        name: version.name,
        context: { operation: version.number === 1 ? 'PostItem' : 'PostVersionedFiles' },
        state: 'CONTENT_AVAILABLE',
        parentFolderUrn: item.folderId,
        ancestors,
        project: item.projectId.replace(/^[ab]\./, ''),
        tenant: item.projectId.replace(/^[ab]\./, ''),
      },
    })
  }

  function send(delivery: FakeDelivery): Promise<FakeDelivery> {
    state.deliveries.push(delivery)
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-adsk-delivery-id': delivery.deliveryId,
    }
    if (delivery.signature !== undefined) headers['x-adsk-signature'] = delivery.signature
    const done = fetch(delivery.callbackUrl, {
      method: 'POST',
      headers,
      body: delivery.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(CALLBACK_TIMEOUT_MS),
    })
      .then(async (answer) => {
        delivery.status = answer.status
        await answer.body?.cancel()
      })
      .catch((error: unknown) => {
        delivery.error = error instanceof Error ? error.message : String(error)
      })
      .then(() => delivery)
    underWay.add(done)
    void done.finally(() => underWay.delete(done))
    return done
  }

  function hookOf(hookId: string): FakeHook {
    const hook = state.hooks.get(hookId)
    if (!hook) throw new Error(`no hook ${hookId}`)
    return hook
  }

  return {
    versionAdded(item, version) {
      const chain = new Set(state.folderChain(item.folderId).map((f) => f.id))
      for (const hook of state.hooks.values()) {
        if (hook.status !== 'active' || hook.event !== 'dm.version.added') continue
        if (!chain.has(hook.scope.folder)) continue
        const body = eventBody(hook, item, version)
        const secret = state.hookSecrets.get(hook.createdBy)
        void send({
          deliveryId: randomUUID(),
          hookId: hook.hookId,
          callbackUrl: hook.callbackUrl,
          body,
          signature: secret === undefined ? undefined : sign(body, secret),
        })
      }
    },
    eventBody,
    sign,
    redeliver(deliveryId) {
      const stored = state.deliveries.find((d) => d.deliveryId === deliveryId)
      if (!stored) throw new Error(`no delivery ${deliveryId}`)
      const { status: _status, error: _error, ...again } = stored
      return send(again)
    },
    forge(hookId, body, signature) {
      const hook = hookOf(hookId)
      return send({
        deliveryId: randomUUID(),
        hookId,
        callbackUrl: hook.callbackUrl,
        body,
        signature,
      })
    },
    async settled() {
      while (underWay.size > 0) await Promise.all(underWay)
    },
  }
}
