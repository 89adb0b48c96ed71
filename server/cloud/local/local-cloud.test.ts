import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { UserProfile } from '../../auth/types.ts'
import { signIn, type TestClient } from '../../testing/client.ts'
import { startTestServer, type TestServer } from '../../testing/start-test-server.ts'
import type { CloudBackend, JsonApiResource } from '../types.ts'
import { encodePath, makeId } from './ids.ts'
import { createLocalCloud } from './local-cloud.ts'

type List = JsonApiResource[]
const e = encodeURIComponent
const ctx = {
  user: { userId: 'u-writer', name: 'Writer Person', picture: '' } as UserProfile,
  accessToken: 'x',
}

let server: TestServer
let client: TestClient
let cloudRoot: string
let backend: CloudBackend

/** hub "Acme" with projects "Alpha" (folders Docs, Docs/Sub) and "Beta" (folder Other). */
beforeAll(async () => {
  server = await startTestServer()
  cloudRoot = join(server.dataDir, 'cloud')
  await mkdir(join(cloudRoot, 'Acme', 'Alpha', 'Docs', 'Sub'), { recursive: true })
  await mkdir(join(cloudRoot, 'Acme', 'Beta', 'Other'), { recursive: true })
  await mkdir(join(cloudRoot, 'Zeta Hub', 'Gamma'), { recursive: true })
  await writeFile(join(cloudRoot, 'Acme', 'Alpha', 'Docs', 'plan.dwg'), 'first plan')
  await writeFile(join(cloudRoot, 'Acme', 'Alpha', 'Docs', 'notes.txt'), 'notes')
  await writeFile(join(cloudRoot, 'Acme', 'Alpha', 'Docs', '.hidden.dwg'), 'hidden')
  await writeFile(join(cloudRoot, 'Acme', 'Alpha', 'loose.dwg'), 'in the project folder itself')
  await writeFile(join(cloudRoot, 'Acme', 'Beta', 'Other', 'b.dwg'), 'beta')
  // Outside the cloud folder: must never be reachable.
  await mkdir(join(server.dataDir, 'outside'), { recursive: true })
  await writeFile(join(server.dataDir, 'outside', 'secret.dwg'), 'SECRET')
  client = await signIn(server.url)
  backend = createLocalCloud({ root: cloudRoot, localUserName: 'Test User' })
})
afterAll(() => server.close())

const ids = {
  acme: makeId('hub', 'Acme'),
  alpha: makeId('project', 'Acme/Alpha'),
  beta: makeId('project', 'Acme/Beta'),
  docs: makeId('folder', 'Acme/Alpha/Docs'),
  sub: makeId('folder', 'Acme/Alpha/Docs/Sub'),
  other: makeId('folder', 'Acme/Beta/Other'),
  plan: makeId('item', 'Acme/Alpha/Docs/plan.dwg'),
}
const projectsPath = (hub: string) => `/api/aps/hubs/${e(hub)}/projects`
const contentsPath = (hub: string, project: string, folder?: string) =>
  `/api/aps/hubs/${e(hub)}/projects/${e(project)}/contents${folder === undefined ? '' : `?folder_id=${e(folder)}`}`
const versionsPath = (hub: string, project: string, item: string) =>
  `/api/aps/hubs/${e(hub)}/projects/${e(project)}/contents/${e(item)}/versions`

async function versionsOf(item = ids.plan, project = ids.alpha) {
  return await client.json<List>(versionsPath(ids.acme, project, item))
}

describe('browsing the folder cloud', () => {
  it('lists hubs and projects as JSON:API objects', async () => {
    const hubs = await client.json<List>('/api/aps/hubs')
    expect(hubs.map((h) => h.attributes.name)).toEqual(['Acme', 'Zeta Hub'])
    const [acme] = hubs
    expect(acme).toMatchObject({
      type: 'hubs',
      id: ids.acme,
      links: { self: { href: expect.any(String) } },
    })

    const projects = await client.json<List>(projectsPath(ids.acme))
    expect(projects.map((p) => [p.type, p.id, p.attributes.name])).toEqual([
      ['projects', ids.alpha, 'Alpha'],
      ['projects', ids.beta, 'Beta'],
    ])
    expect(projects[0]?.links?.self?.href).toEqual(expect.any(String))
  })

  it('answers a project’s top folders without folder_id (files there are not shown)', async () => {
    const top = await client.json<List>(contentsPath(ids.acme, ids.alpha))
    expect(top.map((x) => [x.type, x.id, x.attributes.name])).toEqual([
      ['folders', ids.docs, 'Docs'],
    ])
  })

  it('answers a folder’s folders and items (hidden names left out)', async () => {
    const docs = await client.json<List>(contentsPath(ids.acme, ids.alpha, ids.docs))
    expect(docs.map((x) => [x.type, x.attributes.name ?? x.attributes.displayName])).toEqual([
      ['folders', 'Sub'],
      ['items', 'notes.txt'],
      ['items', 'plan.dwg'],
    ])
    const plan = docs.find((x) => x.id === ids.plan)
    expect(plan).toMatchObject({
      type: 'items',
      attributes: { displayName: 'plan.dwg' },
      links: { self: { href: expect.any(String) } },
    })
  })

  it('answers versions with every field the app reads', async () => {
    const [version] = await versionsOf()
    expect(version?.type).toBe('versions')
    expect(version?.attributes).toMatchObject({
      name: 'plan.dwg',
      displayName: 'plan.dwg',
      versionNumber: 1,
      lastModifiedUserName: 'Test User',
      storageSize: 'first plan'.length,
    })
    expect(new Date(version?.attributes.createTime as string).toISOString()).toBe(
      version?.attributes.createTime,
    )
    const storageId = version?.relationships?.storage?.data?.id
    expect(storageId).toMatch(/^urn:adsk\.objects:os\.object:[a-z0-9._-]+\/[^/]+$/)
    expect(version?.links?.self?.href).toEqual(expect.any(String))
    // ACC form: …/docs/files/projects/{id}?folderUrn=…&entityId=…
    const webView = new URL(version?.links?.webView?.href ?? '')
    expect(webView.pathname).toMatch(/\/docs\/files\/projects\/[^/]+$/)
    expect(webView.searchParams.get('folderUrn')).toBe(ids.docs)
    expect(webView.searchParams.get('entityId')).toBe(version?.id)
  })

  it('shows a file dropped in by hand at once, as version 1 by the local user', async () => {
    await writeFile(join(cloudRoot, 'Acme', 'Alpha', 'Docs', 'Sub', 'dropped.dwg'), 'by hand')
    const sub = await client.json<List>(contentsPath(ids.acme, ids.alpha, ids.sub))
    const item = sub.find((x) => x.attributes.displayName === 'dropped.dwg')
    expect(item?.type).toBe('items')
    const versions = await versionsOf(item?.id)
    expect(
      versions.map((v) => [v.attributes.versionNumber, v.attributes.lastModifiedUserName]),
    ).toEqual([[1, 'Test User']])
  })

  it('gives the same ids after a restart', async () => {
    const again = await startTestServer({ dataDir: server.dataDir })
    try {
      const other = await signIn(again.url)
      const first = await client.json<List>(contentsPath(ids.acme, ids.alpha, ids.docs))
      const second = await other.json<List>(contentsPath(ids.acme, ids.alpha, ids.docs))
      expect(second.map((x) => x.id)).toEqual(first.map((x) => x.id))
    } finally {
      await again.close()
    }
  })
})

describe('ids that do not resolve inside the cloud folder answer 404', () => {
  const b64 = (rel: string) => encodePath(rel)
  const hostile = [
    'b.',
    'nonsense',
    'b.!!!',
    `b.${b64('..')}`,
    `b.${b64('../outside')}`,
    `b.${b64('/etc')}`,
    `b.${b64('Acme/..')}`,
    `b.${b64('Acme\\..\\..')}`,
    `b.${b64('Acme')}=`, // non-canonical base64
    `b.${b64('Acme')}%2e`,
    `b.${b64('.versions')}`,
    `b.${b64('Nope')}`,
  ]

  it('for hubs', async () => {
    for (const hub of hostile) {
      const response = await client(projectsPath(hub))
      expect(response.status, hub).toBe(404)
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
    }
  })

  it('for projects, including a project of another hub and a hub id used as a project id', async () => {
    const bad = [
      ...hostile,
      makeId('project', 'Zeta Hub/Gamma'),
      makeId('project', 'Acme/../outside'),
      ids.acme,
      makeId('project', 'Acme/Alpha/Docs'),
    ]
    for (const project of bad) {
      const response = await client(contentsPath(ids.acme, project))
      expect(response.status, project).toBe(404)
    }
  })

  it('for folders: traversal, absolute paths, other projects, files, hidden stores', async () => {
    const bad = [
      makeId('folder', 'Acme/Alpha/..'),
      makeId('folder', 'Acme/Alpha/../../../outside'),
      makeId('folder', '/etc/passwd'),
      makeId('folder', 'Acme/Alpha//Docs'),
      makeId('folder', 'Acme/Alpha/Docs/'),
      makeId('folder', 'Acme/Alpha/./Docs'),
      makeId('folder', 'Acme/Alpha/Docs/plan.dwg'),
      makeId('folder', 'Acme/Alpha/Docs/.versions'),
      makeId('folder', 'Acme/Alpha/Missing'),
      ids.other,
      ids.docs.replace('urn:adsk.wipprod:fs.folder:co.', 'urn:adsk.wipprod:fs.folder:xx.'),
      ids.plan,
      `${ids.docs}%00`,
      '%2e%2e%2f%2e%2e',
      '../../outside',
    ]
    for (const folder of bad) {
      const response = await client(contentsPath(ids.acme, ids.alpha, folder))
      expect(response.status, folder).toBe(404)
      expect(await response.text()).not.toContain('SECRET')
    }
  })

  it('for items and their versions', async () => {
    const bad = [
      makeId('item', 'Acme/Alpha/Docs/../../../outside/secret.dwg'),
      makeId('item', 'Acme/Alpha/Docs/.hidden.dwg'),
      makeId('item', 'Acme/Alpha/Docs/Sub'),
      makeId('item', 'Acme/Beta/Other/b.dwg'),
      makeId('item', 'Acme/Alpha/loose.dwg'),
      ids.docs,
      'urn:adsk.wipprod:dm.lineage:',
    ]
    for (const item of bad) {
      const response = await client(versionsPath(ids.acme, ids.alpha, item))
      expect(response.status, item).toBe(404)
    }
  })

  it('for symlinks leading out of the cloud folder, which are not listed either', async () => {
    const docs = join(cloudRoot, 'Acme', 'Alpha', 'Docs')
    await symlink(join(server.dataDir, 'outside'), join(docs, 'escape'))
    await symlink(join(server.dataDir, 'outside', 'secret.dwg'), join(docs, 'secret.dwg'))
    await symlink(join(docs, 'plan.dwg'), join(docs, 'plan-link.dwg'))
    const listing = await client.json<List>(contentsPath(ids.acme, ids.alpha, ids.docs))
    const names = listing.map((x) => x.attributes.name ?? x.attributes.displayName)
    expect(names).not.toContain('escape')
    expect(names).not.toContain('secret.dwg')
    // A link that stays inside the cloud is fine.
    expect(names).toContain('plan-link.dwg')
    expect(
      (await client(contentsPath(ids.acme, ids.alpha, makeId('folder', 'Acme/Alpha/Docs/escape'))))
        .status,
    ).toBe(404)
    const secret = await client(
      versionsPath(ids.acme, ids.alpha, makeId('item', 'Acme/Alpha/Docs/secret.dwg')),
    )
    expect(secret.status).toBe(404)
    await expect(
      backend.download(
        ctx,
        ids.alpha,
        `urn:adsk.objects:os.object:wip.dm.local/${encodePath('Acme/Alpha/Docs/secret.dwg')}.v1`,
      ),
    ).rejects.toMatchObject({ status: 404 })
  })

  it('for storage ids that do not name a version of this project', async () => {
    const [version] = await versionsOf()
    const storageId = version?.relationships?.storage?.data?.id as string
    expect(new TextDecoder().decode(await backend.download(ctx, ids.alpha, storageId))).toBe(
      'first plan',
    )
    for (const bad of [
      storageId.replace(/\.v1$/, '.v99'),
      storageId.replace(/\.v1$/, ''),
      storageId.replace('wip.dm.local', 'other-bucket'),
      `urn:adsk.objects:os.object:wip.dm.local/${encodePath('../outside/secret.dwg')}.v1`,
      'not-a-urn',
    ]) {
      await expect(backend.download(ctx, ids.alpha, bad), bad).rejects.toMatchObject({
        status: 404,
      })
      await expect(backend.storageSize(ctx, ids.alpha, bad), bad).rejects.toMatchObject({
        status: 404,
      })
      await expect(
        backend.storedVersion(ctx, ids.alpha, bad, { folderId: ids.docs, fileName: 'plan.dwg' }),
        bad,
      ).rejects.toMatchObject({ status: 404 })
    }
    // The right storage id with another project.
    await expect(backend.download(ctx, ids.beta, storageId)).rejects.toMatchObject({ status: 404 })
  })
})

describe('versions are real', () => {
  it('keeps the prior version when a file of the same name is written', async () => {
    const first = await backend.upload(ctx, {
      projectId: ids.alpha,
      folderId: ids.sub,
      fileName: 'boq.xlsx',
      bytes: new TextEncoder().encode('one'),
    })
    expect(first).toMatchObject({
      versionNumber: 1,
      createdItem: true,
      itemId: makeId('item', 'Acme/Alpha/Docs/Sub/boq.xlsx'),
    })
    const second = await backend.upload(ctx, {
      projectId: ids.alpha,
      folderId: ids.sub,
      fileName: 'boq.xlsx',
      bytes: new TextEncoder().encode('two!'),
    })
    expect(second).toMatchObject({ versionNumber: 2, createdItem: false, itemId: first.itemId })
    expect(second.versionId).not.toBe(first.versionId)

    const versions = await versionsOf(first.itemId)
    expect(
      versions.map((v) => [
        v.attributes.versionNumber,
        v.attributes.lastModifiedUserName,
        v.attributes.storageSize,
      ]),
    ).toEqual([
      [2, 'Writer Person', 4],
      [1, 'Writer Person', 3],
    ])
    expect(versions.map((v) => v.id)).toEqual([second.versionId, first.versionId])
    const [v2, v1] = versions.map((v) => v.relationships?.storage?.data?.id as string)
    expect(new TextDecoder().decode(await backend.download(ctx, ids.alpha, v1 as string))).toBe(
      'one',
    )
    expect(new TextDecoder().decode(await backend.download(ctx, ids.alpha, v2 as string))).toBe(
      'two!',
    )
    expect(await backend.storageSize(ctx, ids.alpha, v1 as string)).toBe(3)
    // Each version's own name and number, from its storage id alone (whatever name is claimed),
    // found only in its own folder: the BOQ is written into the folder given.
    expect(
      await backend.storedVersion(ctx, ids.alpha, v1 as string, {
        folderId: ids.docs,
        fileName: 'boq.xlsx',
      }),
    ).toBeUndefined()
    const near = { folderId: ids.sub, fileName: 'claimed.xlsx' }
    expect(await backend.storedVersion(ctx, ids.alpha, v1 as string, near)).toEqual({
      name: 'boq.xlsx',
      versionNumber: 1,
    })
    expect(await backend.storedVersion(ctx, ids.alpha, v2 as string, near)).toEqual({
      name: 'boq.xlsx',
      versionNumber: 2,
    })
    // The folder shows one item; the history store stays hidden.
    const sub = await client.json<List>(contentsPath(ids.acme, ids.alpha, ids.sub))
    expect(sub.filter((x) => x.attributes.displayName === 'boq.xlsx')).toHaveLength(1)
    expect(sub.some((x) => String(x.attributes.name).startsWith('.'))).toBe(false)
  })

  it('adds a version over a hand-dropped file, keeping it as version 1', async () => {
    await writeFile(join(cloudRoot, 'Acme', 'Alpha', 'Docs', 'Sub', 'hand.dwg'), 'hand v1')
    const result = await backend.upload(ctx, {
      projectId: ids.alpha,
      folderId: ids.sub,
      fileName: 'hand.dwg',
      bytes: new TextEncoder().encode('tool v2'),
    })
    expect(result).toMatchObject({ versionNumber: 2, createdItem: false })
    const versions = await versionsOf(result.itemId)
    expect(
      versions.map((v) => [v.attributes.versionNumber, v.attributes.lastModifiedUserName]),
    ).toEqual([
      [2, 'Writer Person'],
      [1, 'Test User'],
    ])
    const v1 = versions[1]?.relationships?.storage?.data?.id as string
    expect(new TextDecoder().decode(await backend.download(ctx, ids.alpha, v1))).toBe('hand v1')
  })

  it('counts a file overwritten by hand as the next version, keeping the one it replaced', async () => {
    const { itemId } = await backend.upload(ctx, {
      projectId: ids.alpha,
      folderId: ids.sub,
      fileName: 'edited.dwg',
      bytes: new TextEncoder().encode('v1'),
    })
    await writeFile(join(cloudRoot, 'Acme', 'Alpha', 'Docs', 'Sub', 'edited.dwg'), 'edited by hand')
    const versions = await versionsOf(itemId)
    expect(
      versions.map((v) => [v.attributes.versionNumber, v.attributes.lastModifiedUserName]),
    ).toEqual([
      [2, 'Test User'],
      [1, 'Writer Person'],
    ])
    const v1 = versions[1]?.relationships?.storage?.data?.id as string
    expect(new TextDecoder().decode(await backend.download(ctx, ids.alpha, v1))).toBe('v1')
    const next = await backend.upload(ctx, {
      projectId: ids.alpha,
      folderId: ids.sub,
      fileName: 'edited.dwg',
      bytes: new TextEncoder().encode('v3'),
    })
    expect(next.versionNumber).toBe(3)
    expect((await versionsOf(itemId)).map((v) => v.attributes.versionNumber)).toEqual([3, 2, 1])
  })

  it('serialises concurrent writes to one file into consecutive versions', async () => {
    const write = (text: string) =>
      backend.upload(ctx, {
        projectId: ids.alpha,
        folderId: ids.sub,
        fileName: 'busy.csv',
        bytes: new TextEncoder().encode(text),
      })
    const results = await Promise.all(['a', 'b', 'c', 'd'].map(write))
    expect(results.map((r) => r.versionNumber).sort()).toEqual([1, 2, 3, 4])
    const versions = await versionsOf(results[0]?.itemId)
    expect(versions.map((v) => v.attributes.versionNumber)).toEqual([4, 3, 2, 1])
  })

  it('refuses names that are not plain file names and folders outside the project', async () => {
    for (const fileName of [
      '',
      '.',
      '..',
      '../x.dwg',
      'a/b.dwg',
      'a\\b.dwg',
      '.hidden',
      'x'.repeat(300),
    ]) {
      await expect(
        backend.upload(ctx, {
          projectId: ids.alpha,
          folderId: ids.sub,
          fileName,
          bytes: new Uint8Array(1),
        }),
        fileName,
      ).rejects.toMatchObject({ status: 400 })
    }
    await expect(
      backend.upload(ctx, {
        projectId: ids.alpha,
        folderId: ids.other,
        fileName: 'x.dwg',
        bytes: new Uint8Array(1),
      }),
    ).rejects.toMatchObject({ status: 404 })
    await expect(
      backend.upload(ctx, {
        projectId: ids.alpha,
        folderId: makeId('folder', 'Acme/Alpha/Docs/../../../outside'),
        fileName: 'x.dwg',
        bytes: new Uint8Array(1),
      }),
    ).rejects.toMatchObject({ status: 404 })
    expect(await readdir(join(server.dataDir, 'outside'))).toEqual(['secret.dwg'])
  })

  it('checkFolder resolves for a folder of the project and rejects others', async () => {
    await expect(backend.checkFolder(ctx, ids.alpha, ids.sub)).resolves.toBeUndefined()
    await expect(backend.checkFolder(ctx, ids.alpha, ids.other)).rejects.toMatchObject({
      status: 404,
    })
    await expect(backend.checkFolder(ctx, ids.beta, ids.other)).resolves.toBeUndefined()
  })
})

describe('a big folder', () => {
  it('is answered whole', async () => {
    const big = join(cloudRoot, 'Acme', 'Beta', 'Other', 'Big')
    await mkdir(big)
    const count = 3000
    const names = Array.from(
      { length: count },
      (_, i) => `drawing-${String(i).padStart(5, '0')}.dwg`,
    )
    for (let i = 0; i < names.length; i += 500) {
      await Promise.all(names.slice(i, i + 500).map((name) => writeFile(join(big, name), '')))
    }
    const listing = await client.json<List>(
      contentsPath(ids.acme, ids.beta, makeId('folder', 'Acme/Beta/Other/Big')),
    )
    expect(listing).toHaveLength(count)
    expect(listing[0]?.attributes.displayName).toBe('drawing-00000.dwg')
    expect(listing.at(-1)?.attributes.displayName).toBe(`drawing-0${count - 1}.dwg`)
  })
})
