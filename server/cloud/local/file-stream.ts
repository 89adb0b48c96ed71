import type { FileHandle } from 'node:fs/promises'

/** Bytes read from the file at a time: one chunk waits in the stream, one is being sent. */
const CHUNK_BYTES = 256 * 1024

/**
 * The bytes of an open file as a web stream, read a chunk at a time only as the reader asks for
 * more (a slow client holds two chunks, not the file). The file is closed at its end, on a read
 * error, and when the reader cancels (the client went away).
 */
export function fileStream(handle: FileHandle): ReadableStream<Uint8Array> {
  let position = 0
  let closed = false
  const close = async () => {
    if (closed) return
    closed = true
    await handle.close().catch(() => undefined)
  }
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let bytesRead: number
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES)
      try {
        ;({ bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, position))
      } catch (error) {
        if (closed) return
        await close()
        controller.error(error)
        return
      }
      // Cancelled while reading: nothing more is wanted.
      if (closed) return
      if (bytesRead === 0) {
        await close()
        controller.close()
        return
      }
      position += bytesRead
      controller.enqueue(bytesRead === CHUNK_BYTES ? chunk : chunk.subarray(0, bytesRead))
    },
    cancel: close,
  })
}
