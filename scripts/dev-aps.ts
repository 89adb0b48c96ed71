import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startFakeAps } from '../dev/fake-aps/server.ts'
import { startNode, superviseUntilExit } from './children.ts'

/**
 * `npm run dev:aps`: the fake Autodesk (loopback, seeded with an ACC project and real drawings)
 * and the product in Autodesk mode against it, as `npm start` runs it. Open the printed URL and
 * click "Login with Autodesk". Ctrl-C stops both.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const port = process.env.PORT ?? '3000'
const fakePort = Number(process.env.APS_FAKE_PORT ?? '3900')
const callbackUrl = `http://localhost:${port}/api/aps/auth/callback`

const fake = await startFakeAps({ port: fakePort, callbackUrls: [callbackUrl] })
console.log(`Fake Autodesk listening on ${fake.url} (client id ${fake.client.clientId})`)
console.log(`Open http://localhost:${port} and click "Login with Autodesk".`)

const product = startNode([join(root, 'scripts', 'start.ts')], {
  PORT: port,
  APS_CLIENT_ID: fake.client.clientId,
  APS_CLIENT_SECRET: fake.client.clientSecret,
  APS_CALLBACK_URL: callbackUrl,
  APS_BASE_URL: fake.url,
})

await superviseUntilExit([product])
