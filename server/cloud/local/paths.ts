import { realpath, stat } from 'node:fs/promises'
import { join, sep } from 'node:path'
import { AppError } from '../../errors.ts'
import { decodeId, type Kind } from './ids.ts'

const NOT_FOUND: Record<Kind, string> = {
  hub: 'Hub not found.',
  project: 'Project not found.',
  folder: 'Folder not found.',
  item: 'Item not found.',
}

/** Depth of each kind below the cloud folder: hub/project/folder…/file. */
const DEPTH: Record<Kind, (depth: number) => boolean> = {
  hub: (d) => d === 1,
  project: (d) => d === 2,
  folder: (d) => d >= 3,
  item: (d) => d >= 4,
}

/**
 * A name the cloud lists and resolves: no hidden names (that hides `.versions/`), no separators, no
 * `..`. Looser than what BOQ itself writes (cloud/names.ts): files dropped in by hand still show.
 */
export function isListedName(name: string): boolean {
  return name.length > 0 && !name.startsWith('.') && !/[/\\\0]/.test(name)
}

/** A path relative to the cloud folder made only of visible names, of the depth the kind needs. */
export function isSafeRel(kind: Kind, rel: string): boolean {
  const parts = rel.split('/')
  return DEPTH[kind](parts.length) && parts.every(isListedName)
}

export function relInside(rel: string, parentRel: string): boolean {
  return rel.startsWith(`${parentRel}/`)
}

export interface Resolved {
  rel: string
  abs: string
}

/**
 * Resolves ids against the cloud folder. Anything that does not land on an existing entry of the
 * right type inside the folder (after following symlinks) is a 404, never a path outside it.
 */
export class CloudPaths {
  readonly root: string
  #realRoot: Promise<string> | undefined

  constructor(root: string) {
    this.root = root
  }

  abs(rel: string): string {
    return join(this.root, ...rel.split('/'))
  }

  realRoot(): Promise<string> {
    if (!this.#realRoot) {
      this.#realRoot = realpath(this.root)
      this.#realRoot.catch(() => {
        this.#realRoot = undefined
      })
    }
    return this.#realRoot
  }

  /** True when the entry's real location (symlinks followed) is inside the cloud folder. */
  async staysInside(abs: string): Promise<boolean> {
    try {
      const [real, root] = await Promise.all([realpath(abs), this.realRoot()])
      return real === root || real.startsWith(root + sep)
    } catch {
      return false
    }
  }

  /** Decodes and checks an id; `parentRel` is the hub/project/folder it must sit under. */
  async resolve(kind: Kind, id: string, parentRel?: string): Promise<Resolved> {
    const rel = decodeId(kind, id)
    if (rel === undefined) throw new AppError(404, NOT_FOUND[kind])
    return this.resolveRel(kind, rel, parentRel)
  }

  async resolveRel(kind: Kind, rel: string, parentRel?: string): Promise<Resolved> {
    const notFound = new AppError(404, NOT_FOUND[kind])
    if (!isSafeRel(kind, rel)) throw notFound
    if (parentRel !== undefined && !relInside(rel, parentRel)) throw notFound
    const abs = this.abs(rel)
    if (!(await this.staysInside(abs))) throw notFound
    const info = await stat(abs).catch(() => undefined)
    const wanted = kind === 'item' ? info?.isFile() : info?.isDirectory()
    if (!wanted) throw notFound
    return { rel, abs }
  }
}
