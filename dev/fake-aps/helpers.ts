import { createHash, randomBytes } from 'node:crypto'
import type { AuthProvider, Tokens } from '../../server/auth/types.ts'
import type { ApsConfig } from '../../server/config.ts'
import type { FakeAps } from './server.ts'
import { FAKE_CLIENT_ID, FAKE_CLIENT_SECRET } from './server.ts'

export const CALLBACK_URL = 'http://127.0.0.1:9/api/aps/auth/callback'

export function settingsFor(fake: FakeAps): ApsConfig {
  return {
    clientId: FAKE_CLIENT_ID,
    clientSecret: FAKE_CLIENT_SECRET,
    callbackUrl: CALLBACK_URL,
    baseUrl: fake.url,
  }
}

/** Walks the fake's login page as a browser would: authorize URL → Allow → code. */
export async function signInAtFake(
  provider: AuthProvider,
  state = 'state-1',
): Promise<{ tokens: Tokens; verifier: string }> {
  const verifier = randomBytes(32).toString('base64url')
  const url = await provider.authorizeUrl({
    state,
    codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
    callbackUrl: CALLBACK_URL,
  })
  const code = await codeFromLoginPage(url)
  const tokens = await provider.exchangeCode({
    code,
    codeVerifier: verifier,
    callbackUrl: CALLBACK_URL,
  })
  return { tokens, verifier }
}

/** GET the login page, submit its form with "Allow"; the code from the redirect. */
export async function codeFromLoginPage(authorizeUrl: string): Promise<string> {
  const location = await codeFromLoginPageRedirect(authorizeUrl)
  const code = new URL(location).searchParams.get('code')
  if (!code) throw new Error(`no code in redirect: ${location}`)
  return code
}

/** GET the login page, submit its form with "Allow"; the whole redirect (callback?code&state). */
export async function codeFromLoginPageRedirect(authorizeUrl: string): Promise<string> {
  const page = await fetch(authorizeUrl)
  if (!page.ok) throw new Error(`login page: ${page.status} ${await page.text()}`)
  const html = await page.text()
  const form = new URLSearchParams()
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    form.set(
      match[1],
      match[2].replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))),
    )
  }
  form.set('decision', 'allow')
  const answer = await fetch(new URL('/authentication/v2/authorize', authorizeUrl), {
    method: 'POST',
    body: form,
    redirect: 'manual',
  })
  const location = answer.headers.get('location')
  if (answer.status !== 302 || !location) throw new Error(`login form answered ${answer.status}`)
  return location
}
