import { describe, expect, it } from 'vitest'
import type { SecretKeys } from './auth/keys.ts'
import { createBackends } from './backends.ts'
import { loadConfig } from './config.ts'

const keys: SecretKeys = {
  session: new Uint8Array(32),
  oauth: new Uint8Array(32),
  localCode: new Uint8Array(32),
  jobToken: new Uint8Array(32),
  hookSecret: new Uint8Array(32),
}

describe('createBackends', () => {
  it('picks the local folder cloud without Autodesk settings', () => {
    expect(createBackends(loadConfig({ BOQ_DATA_DIR: '/tmp/boq-unused' }), keys).cloud.kind).toBe(
      'local',
    )
  })

  it('picks Autodesk when APS_CLIENT_ID, APS_CLIENT_SECRET and APS_CALLBACK_URL are set', () => {
    const config = loadConfig({
      APS_CLIENT_ID: 'id',
      APS_CLIENT_SECRET: 'secret',
      APS_CALLBACK_URL: 'http://localhost:3000/api/aps/auth/callback',
    })
    expect(createBackends(config, keys).cloud.kind).toBe('aps')
  })
})
