// Page-level navigation, kept in one object so tests can spy on it
// (jsdom's window.location methods cannot be replaced).
export const browser = {
  assign(url: string): void {
    window.location.assign(url)
  },
  reload(): void {
    window.location.reload()
  },
}
