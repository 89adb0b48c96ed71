/**
 * Runs `work` while document.head refuses the <style> elements the CAD viewer adds for its own
 * widgets (command line, progress overlay, selection box: classes `ml-…`). The app's
 * Content-Security-Policy allows no inline style, so each would log a violation; the view shows
 * none of those widgets (cad-viewer.css hides them). Every other element goes in as usual.
 */
export async function withoutLibraryStyles<T>(work: () => T | Promise<T>): Promise<T> {
  const head = document.head
  const append = head.appendChild
  head.appendChild = function appendChild<N extends Node>(this: HTMLHeadElement, node: N): N {
    if (isLibraryStyle(node)) return node
    return append.call(this, node) as N
  }
  try {
    return await work()
  } finally {
    head.appendChild = append
  }
}

function isLibraryStyle(node: Node): boolean {
  if (!(node instanceof HTMLStyleElement)) return false
  // Some are added empty and filled after; all carry an `ml-` id or style `.ml-` classes.
  return (
    node.id.startsWith('ml-') ||
    (node.textContent ?? '').includes('.ml-') ||
    node.textContent === ''
  )
}
