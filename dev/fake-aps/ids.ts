import { createHash, randomBytes } from 'node:crypto'

/** 22 characters of base64url, as Autodesk's urn suffixes; stable for a given label. */
export function stableSuffix(label: string): string {
  return createHash('sha256').update(label).digest('base64url').slice(0, 22)
}

export function randomSuffix(): string {
  return randomBytes(16).toString('base64url').slice(0, 22)
}

export function uuidFrom(label: string): string {
  const h = createHash('sha256').update(label).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`
}

export const folderUrn = (suffix: string) => `urn:adsk.wipprod:fs.folder:co.${suffix}`
export const itemUrn = (suffix: string) => `urn:adsk.wipprod:dm.lineage:${suffix}`
export const versionUrn = (itemSuffix: string, n: number) =>
  `urn:adsk.wipprod:fs.file:vf.${itemSuffix}?version=${n}`
export const BUCKET = 'wip.dm.prod'
export const storageUrn = (objectKey: string) => `urn:adsk.objects:os.object:${BUCKET}/${objectKey}`

/** A token shaped like Autodesk's: access tokens are JWTs of about a kilobyte (cookie size matters). */
export function fakeToken(kind: 'at' | 'rt'): string {
  return kind === 'at'
    ? `fakeat.${randomBytes(760).toString('base64url')}`
    : randomBytes(30).toString('base64url')
}
