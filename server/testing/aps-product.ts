import { codeFromLoginPageRedirect } from '../../dev/fake-aps/helpers.ts'
import {
  FAKE_CLIENT_ID,
  FAKE_CLIENT_SECRET,
  type FakeAps,
  startFakeAps,
} from '../../dev/fake-aps/server.ts'
import type { TestClient } from './client.ts'
import { createClient } from './client.ts'
import { startTestServer, type TestServer } from './start-test-server.ts'

/**
 * The product in Autodesk mode against a fresh fake. The callback URL registered with the fake
 * is a stand-in address (the real port is known only once the server listens); tests take the
 * fake's redirect and replay its path and query on the real server, as a proxy would.
 */
export async function startApsProduct(env: Record<string, string> = {}): Promise<{
  fake: FakeAps
  server: TestServer
  close(): Promise<void>
}> {
  const fake = await startFakeAps()
  const server = await startTestServer({
    env: {
      APS_CLIENT_ID: FAKE_CLIENT_ID,
      APS_CLIENT_SECRET: FAKE_CLIENT_SECRET,
      APS_CALLBACK_URL: STAND_IN_CALLBACK,
      APS_BASE_URL: fake.url,
      ...env,
    },
  })
  return {
    fake,
    server,
    async close() {
      await server.close()
      await fake.close()
    },
  }
}

export const STAND_IN_CALLBACK = 'http://127.0.0.1:9/api/aps/auth/callback'

/** Login → the fake's login page → Allow → the callback on the real server; a signed-in client. */
export async function signInThroughFake(serverUrl: string): Promise<TestClient> {
  const client = createClient(serverUrl)
  const callback = await callbackFromLogin(client)
  const answer = await client(callback)
  if (answer.status !== 302)
    throw new Error(`callback answered ${answer.status}: ${await answer.text()}`)
  await answer.body?.cancel()
  return client
}

/** The callback path and query the fake redirects to, for this client's login. */
export async function callbackFromLogin(client: TestClient): Promise<string> {
  const login = await client('/api/aps/auth/login')
  const text = await login.text()
  if (!login.ok) throw new Error(`login answered ${login.status}: ${text}`)
  const authorizeUrl = text.startsWith('"') ? (JSON.parse(text) as string) : text
  const redirect = new URL(await codeFromLoginPageRedirect(authorizeUrl))
  return redirect.pathname + redirect.search
}
