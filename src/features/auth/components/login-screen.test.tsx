import { screen, waitFor } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { browser } from '../../../lib/browser'
import { fakeApi, requestsTo } from '../../../testing/fake-api'
import { server } from '../../../testing/msw-server'
import { renderApp } from '../../../testing/render-app'

describe('login screen', () => {
  it('shows the logo, the title, the button and the description over a background image', async () => {
    renderApp('/login')
    expect(await screen.findByRole('heading', { name: 'BOQ' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Login with Autodesk' })).toBeEnabled()
    expect(screen.getByText('App description')).toBeInTheDocument()
    const main = screen.getByRole('main')
    expect(main.style.backgroundImage).toContain('/login-background.svg')
    expect(main.querySelector('img[src="/logo.svg"]')).not.toBeNull()
  })

  it('asks the server for the sign-in URL and sends the browser there (plain-text answer)', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {})
    const { user } = renderApp('/login')
    await user.click(await screen.findByRole('button', { name: 'Login with Autodesk' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith(fakeApi.loginUrl))
    expect(requestsTo('/api/aps/auth/login')).toHaveLength(1)
  })

  it('asks for a sign-in that leads back to the page in returnTo', async () => {
    vi.spyOn(browser, 'assign').mockImplementation(() => {})
    const { user } = renderApp(`/login?returnTo=${encodeURIComponent('/jobs/j-1?tab=priced')}`)
    await user.click(await screen.findByRole('button', { name: 'Login with Autodesk' }))
    await waitFor(() => expect(requestsTo('/api/aps/auth/login')).toHaveLength(1))
    const [request] = requestsTo('/api/aps/auth/login')
    expect(request?.url.searchParams.get('returnTo')).toBe('/jobs/j-1?tab=priced')
  })

  it('drops a returnTo that is not a page of this app: the sign-in leads to /', async () => {
    vi.spyOn(browser, 'assign').mockImplementation(() => {})
    for (const returnTo of ['//evil.example', 'https://x', '/\\x', '/api/aps/auth/logout']) {
      const { router, user, unmount } = renderApp(`/login?returnTo=${encodeURIComponent(returnTo)}`)
      await user.click(await screen.findByRole('button', { name: 'Login with Autodesk' }))
      await waitFor(() => expect(requestsTo('/api/aps/auth/login')).toHaveLength(1))
      const [request] = requestsTo('/api/aps/auth/login')
      expect(request?.url.search, returnTo).toBe('')
      expect(router.state.location.search, returnTo).toEqual({})
      unmount()
      fakeApi.requests.length = 0
    }
  })

  it('accepts the URL as a JSON string too', async () => {
    server.use(
      http.get('*/api/aps/auth/login', () => HttpResponse.json('https://sign.in/here?x=1')),
    )
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {})
    const { user } = renderApp('/login')
    await user.click(await screen.findByRole('button', { name: 'Login with Autodesk' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://sign.in/here?x=1'))
  })

  it('logs a failed sign-in start and stays on the page', async () => {
    server.use(http.get('*/api/aps/auth/login', () => new HttpResponse('down', { status: 503 })))
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {})
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { user } = renderApp('/login')
    const button = await screen.findByRole('button', { name: 'Login with Autodesk' })
    await user.click(button)
    await waitFor(() => expect(logged).toHaveBeenCalled())
    expect(assign).not.toHaveBeenCalled()
    expect(button).toBeEnabled()
  })
})
