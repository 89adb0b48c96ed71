import { describe, expect, it } from 'vitest'
import { setCookie } from '../../../testing/cookies'
import { requestsTo } from '../../../testing/fake-api'
import { logout } from './auth-api'

describe('logout', () => {
  it('GETs logout with the anti-forgery header, which the server asks of a GET that signs out', async () => {
    setCookie('XSRF-TOKEN', 'l0g%2Fout')
    await logout()
    const [request] = requestsTo('/api/aps/auth/logout')
    expect(request?.method).toBe('GET')
    expect(request?.headers.get('X-XSRF-TOKEN')).toBe('l0g/out')
  })
})
