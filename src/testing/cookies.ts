// Cookies for tests (jsdom keeps document.cookie between tests of a file).

export function setCookie(name: string, value: string): void {
  // biome-ignore lint/suspicious/noDocumentCookie: tests play the server that sets the cookie
  document.cookie = `${name}=${value}; path=/`
}

export function clearCookies(): void {
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim()
    // biome-ignore lint/suspicious/noDocumentCookie: expiring what a test set
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`
  }
}
