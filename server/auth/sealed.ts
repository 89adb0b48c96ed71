import { EncryptJWT, jwtDecrypt } from 'jose'

/**
 * Seals a value as a JWE (dir + A256GCM): encrypted, and authenticated by the GCM tag, so the
 * browser can neither read nor alter it. Expiry is inside the sealed claims.
 */
export async function seal(value: object, key: Uint8Array, maxAgeSeconds: number): Promise<string> {
  return new EncryptJWT({ v: value })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + maxAgeSeconds)
    .encrypt(key)
}

/** The sealed value, or undefined when the text is missing, tampered with, foreign or expired. */
export async function unseal<T>(text: string | undefined, key: Uint8Array): Promise<T | undefined> {
  if (!text) return undefined
  try {
    const { payload } = await jwtDecrypt(text, key, {
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A256GCM'],
    })
    return payload.v as T
  } catch {
    return undefined
  }
}
