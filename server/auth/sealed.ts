import { EncryptJWT, jwtDecrypt } from 'jose'

/**
 * The one sealing of secrets (session and OAuth cookies, the tokens kept with queued jobs): a JWE
 * (dir + A256GCM), encrypted and authenticated by the GCM tag, so whoever holds the text can
 * neither read nor alter it. Expiry, when given, is inside the sealed claims.
 */
export async function seal(
  value: object,
  key: Uint8Array,
  maxAgeSeconds?: number,
): Promise<string> {
  const jwt = new EncryptJWT({ v: value })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setIssuedAt()
  if (maxAgeSeconds !== undefined) {
    jwt.setExpirationTime(Math.floor(Date.now() / 1000) + maxAgeSeconds)
  }
  return jwt.encrypt(key)
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
