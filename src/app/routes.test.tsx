import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { browser } from '../lib/browser'
import { fakeApi, requestsTo } from '../testing/fake-api'
import { server } from '../testing/msw-server'
import { renderApp } from '../testing/render-app'

const HEADING = 'Select the file from ACC to extract BOQ'

describe('protected layout (guard)', { timeout: 20_000 }, () => {
  it('shows the file-selection screen at / when signed in', async () => {
    const { router } = renderApp('/')
    expect(await screen.findByRole('heading', { name: HEADING })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/')
  })

  it('shows the same screen at /home, without a redirect', async () => {
    const { router } = renderApp('/home')
    expect(await screen.findByRole('heading', { name: HEADING })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/home')
    expect(requestsTo('/api/aps/hubs')).toHaveLength(1)
  })

  it('sends a signed-out visitor (token 401) at / to /login', async () => {
    fakeApi.signedIn = false
    const { router } = renderApp('/')
    expect(await screen.findByRole('button', { name: 'Login with Autodesk' })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/login')
    expect(router.state.location.search).toEqual({})
    expect(screen.queryByRole('heading', { name: HEADING })).not.toBeInTheDocument()
  })

  it('carries the page a signed-out visitor opened to /login, and on to the sign-in', async () => {
    fakeApi.signedIn = false
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {})
    const { router, user } = renderApp('/jobs/j-7?tab=priced')
    const login = await screen.findByRole('button', { name: 'Login with Autodesk' })
    expect(router.state.location.pathname).toBe('/login')
    expect(router.state.location.search).toEqual({ returnTo: '/jobs/j-7?tab=priced' })
    await user.click(login)
    await waitFor(() => expect(assign).toHaveBeenCalledWith(fakeApi.loginUrl))
    const [request] = requestsTo('/api/aps/auth/login')
    expect(request?.url.searchParams.get('returnTo')).toBe('/jobs/j-7?tab=priced')
    expect(requestsTo('/api/boq/jobs/j-7')).toHaveLength(0)
  })

  it('sends the visitor to /login when the token check answers 500', async () => {
    server.use(http.get('*/api/aps/auth/token', () => new HttpResponse('boom', { status: 500 })))
    const { router } = renderApp('/')
    expect(await screen.findByRole('button', { name: 'Login with Autodesk' })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/login')
  })

  it('shows the error page when the token check fails otherwise (502)', async () => {
    server.use(http.get('*/api/aps/auth/token', () => new HttpResponse('down', { status: 502 })))
    // React and the router report the error they caught.
    vi.spyOn(console, 'error').mockImplementation(() => {})
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { router } = renderApp('/')
    expect(await screen.findByRole('alert')).toHaveTextContent(/Something went wrong: .*502/)
    expect(router.state.location.pathname).toBe('/')
    expect(requestsTo('/api/aps/auth/profile')).toHaveLength(0)
  })

  it('loads the profile into the signed-in user (userId, name, avatar from picture)', async () => {
    const { auth } = renderApp('/')
    await screen.findByRole('heading', { name: HEADING })
    expect(auth.get()).toEqual({
      signedIn: true,
      user: { userId: 'u-1', name: 'Ada Lovelace', picture: 'https://cloud.test/ada.png' },
    })
    const avatar = screen.getByRole('button', { name: 'User menu' }).querySelector('img')
    expect(avatar).toHaveAttribute('src', 'https://cloud.test/ada.png')
  })

  it('checks the token only while no user is signed in', async () => {
    const { router, user } = renderApp('/jobs')
    await screen.findByRole('link', { name: 'Back to the drawings' })
    await user.click(screen.getByRole('button', { name: 'Home' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'))
    await screen.findByRole('heading', { name: HEADING })
    expect(requestsTo('/api/aps/auth/token')).toHaveLength(1)
    expect(requestsTo('/api/aps/auth/profile')).toHaveLength(1)
  })

  it('logs a failed profile load only: the user is still signed in', async () => {
    server.use(http.get('*/api/aps/auth/profile', () => new HttpResponse('no', { status: 502 })))
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { auth } = renderApp('/')
    expect(await screen.findByRole('heading', { name: HEADING })).toBeInTheDocument()
    expect(auth.get()).toEqual({ signedIn: true, user: null })
    expect(logged).toHaveBeenCalled()
  })
})

describe('404 page', { timeout: 20_000 }, () => {
  it('is public and leads back home', async () => {
    fakeApi.signedIn = false
    const { router, user } = renderApp('/no/such/page')
    expect(
      await screen.findByText('Sorry, the page you visited does not exist.'),
    ).toBeInTheDocument()
    expect(requestsTo('/api/aps/auth/token')).toHaveLength(0)
    fakeApi.signedIn = true
    await user.click(screen.getByRole('button', { name: 'Back Home' }))
    expect(await screen.findByRole('heading', { name: HEADING })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/')
  })
})

describe('header', { timeout: 20_000 }, () => {
  it('has the company link, Home, User menu and Help buttons, 65px high', async () => {
    renderApp('/')
    await screen.findByRole('heading', { name: HEADING })
    const header = screen.getByRole('banner')
    expect(header).toHaveClass('h-header')
    const company = within(header).getByRole('link', { name: 'Company site' })
    expect(company).toHaveAttribute('href', 'https://www.autodesk.com/')
    expect(company.querySelector('img[src="/logo.svg"]')).not.toBeNull()
    for (const name of ['Home', 'User menu', 'Help']) {
      expect(within(header).getByRole('button', { name })).toBeInTheDocument()
    }
  })

  it('Home goes to /home, the file-selection screen', async () => {
    const { router, user } = renderApp('/jobs')
    await screen.findByRole('link', { name: 'Back to the drawings' })
    await user.click(screen.getByRole('button', { name: 'Home' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'))
    expect(await screen.findByRole('heading', { name: HEADING })).toBeInTheDocument()
  })

  it('Help does nothing', async () => {
    const { router, user } = renderApp('/')
    await screen.findByText('No jobs yet.')
    const before = fakeApi.requests.length
    await user.click(screen.getByRole('button', { name: 'Help' }))
    expect(router.state.location.pathname).toBe('/')
    expect(fakeApi.requests).toHaveLength(before)
  })

  it('User menu opens a popover with Logout: GET logout, auth cleared, page reloaded', async () => {
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => {})
    const { auth, queryClient, user } = renderApp('/')
    await screen.findByRole('heading', { name: HEADING })
    expect(screen.queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'User menu' }))
    await user.click(await screen.findByRole('button', { name: 'Logout' }))
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1))
    expect(requestsTo('/api/aps/auth/logout')).toHaveLength(1)
    expect(auth.get()).toEqual({ signedIn: false, user: null })
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0)
  })

  it('a failed logout is logged, and the client still signs out and reloads', async () => {
    server.use(http.get('*/api/aps/auth/logout', () => new HttpResponse('x', { status: 500 })))
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => {})
    const { auth, user } = renderApp('/')
    await screen.findByRole('heading', { name: HEADING })
    await user.click(screen.getByRole('button', { name: 'User menu' }))
    await user.click(await screen.findByRole('button', { name: 'Logout' }))
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1))
    expect(logged).toHaveBeenCalled()
    expect(auth.get().signedIn).toBe(false)
  })
})

describe('search params', { timeout: 20_000 }, () => {
  // The compare page without two finished jobs to offer.
  const NO_PAIR = 'Extract two versions of a drawing to compare their bills.'

  it('takes a bad param as absent: the page opens without it rather than failing', async () => {
    // An empty `from`, and a `to` the router reads as a number.
    const { router } = renderApp('/compare?from=&to=42')
    expect(await screen.findByText(NO_PAIR)).toBeInTheDocument()
    // The search the page is given, as its route validated it.
    expect(router.state.matches.at(-1)?.search).toEqual({})
    expect(screen.queryByRole('alert')).toBeNull()
    expect(requestsTo('/api/boq/compare')).toHaveLength(0)
  })
})
