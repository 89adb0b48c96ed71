import { describe, expect, it } from 'vitest'
import { createBackends } from './backends.ts'
import { loadConfig } from './config.ts'

describe('createBackends', () => {
  it('picks the local folder cloud without Autodesk settings', () => {
    expect(createBackends(loadConfig({ BOQ_DATA_DIR: '/tmp/boq-unused' })).cloud.kind).toBe('local')
  })

  it('picks Autodesk when APS_CLIENT_ID, APS_CLIENT_SECRET and APS_CALLBACK_URL are set', () => {
    const config = loadConfig({
      APS_CLIENT_ID: 'id',
      APS_CLIENT_SECRET: 'secret',
      APS_CALLBACK_URL: 'http://localhost:3000/api/aps/auth/callback',
    })
    expect(createBackends(config).cloud.kind).toBe('aps')
  })
})
