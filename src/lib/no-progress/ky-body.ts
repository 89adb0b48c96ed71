// Stands in for ky's upload and download progress streams in the build (vite.config.ts): no call
// passes onUploadProgress or onDownloadProgress, so ky never wraps a body (about 0.4 kB gzip).
import { leftOut } from '../left-out'

export function streamRequest(): never {
  return leftOut("ky's onUploadProgress and onDownloadProgress")
}

export const streamResponse = streamRequest
