import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signInThroughFake, startApsProduct } from '../../testing/aps-product.ts'
import { fixture } from '../../testing/boq/fixtures.ts'
import { createClient, signIn, type TestClient } from '../../testing/client.ts'
import { startTestServer, type TestServer } from '../../testing/start-test-server.ts'
import type { JsonApiResource } from '../types.ts'
import { makeId } from './ids.ts'

type List = JsonApiResource[]
type Uploaded = { itemId: string; versionNumber: number; fileName: string }
const e = encodeURIComponent
const UPLOAD = '/api/local/upload'

/** A DWG header the detector accepts (AutoCAD 2018), for tests that need no real drawing. */
function dwgHeader(size = 256): Uint8Array {
  const bytes = new Uint8Array(size)
  bytes.set(new TextEncoder().encode('AC1032'))
  return bytes
}
const drawing = () => fixture('sample_2018.dwg')

interface Form {
  projectId?: string
  folderId?: string
  itemId?: string
  file?: { bytes: Uint8Array; name: string }
}
function formData(form: Form): FormData {
  const body = new FormData()
  for (const key of ['projectId', 'folderId', 'itemId'] as const) {
    const value = form[key]
    if (value !== undefined) body.set(key, value)
  }
  if (form.file) body.set('file', new Blob([form.file.bytes as BlobPart]), form.file.name)
  return body
}
const post = (client: TestClient, form: Form, headers?: HeadersInit) =>
  client(UPLOAD, { method: 'POST', body: formData(form), headers })

/** Every file below the cloud folder (history included) with its size: to prove nothing changed. */
async function snapshot(root: string): Promise<string[]> {
  const names = (await readdir(root, { recursive: true })).sort()
  const out: string[] = []
  for (const name of names) {
    const info = await stat(join(root, name))
    if (info.isFile()) out.push(`${name} ${info.size}`)
  }
  return out
}

/** hub Acme, project Alpha (Docs, Docs/Sub), project Beta (Other); ids read from the tree. */
async function prepareCloud(server: TestServer, client: TestClient) {
  const root = join(server.dataDir, 'cloud')
  await mkdir(join(root, 'Acme', 'Alpha', 'Docs', 'Sub'), { recursive: true })
  await mkdir(join(root, 'Acme', 'Beta', 'Other'), { recursive: true })
  await writeFile(join(root, 'Acme', 'Alpha', 'Docs', 'Sub', 'deep.dwg'), dwgHeader())
  const hubs = await client.json<List>('/api/aps/hubs')
  const hubId = hubs[0]?.id as string
  const projects = await client.json<List>(`/api/aps/hubs/${e(hubId)}/projects`)
  const [alpha, beta] = projects.map((p) => p.id) as [string, string]
  const contents = (projectId: string, folderId?: string) =>
    client.json<List>(
      `/api/aps/hubs/${e(hubId)}/projects/${e(projectId)}/contents${folderId ? `?folder_id=${e(folderId)}` : ''}`,
    )
  const docs = (await contents(alpha))[0]?.id as string
  const other = (await contents(beta))[0]?.id as string
  const docsList = await contents(alpha, docs)
  const sub = docsList.find((x) => x.attributes.name === 'Sub')?.id as string
  const deep = (await contents(alpha, sub))[0]?.id as string
  return { root, hubId, alpha, beta, docs, other, sub, deep, contents }
}

describe('POST /api/local/upload', () => {
  let server: TestServer
  let client: TestClient
  let cloud: Awaited<ReturnType<typeof prepareCloud>>

  beforeAll(async () => {
    server = await startTestServer()
    client = await signIn(server.url)
    cloud = await prepareCloud(server, client)
  })
  afterAll(() => server.close())

  const versionsOf = (itemId: string) =>
    client.json<List>(
      `/api/aps/hubs/${e(cloud.hubId)}/projects/${e(cloud.alpha)}/contents/${e(itemId)}/versions`,
    )

  it('GET says that uploads are available, signed in or not, never cached', async () => {
    for (const asker of [client, createClient(server.url)]) {
      const answer = await asker(UPLOAD)
      expect(answer.status).toBe(200)
      expect(answer.headers.get('cache-control')).toBe('no-store')
      expect(await answer.json()).toEqual({ available: true })
    }
  })

  it('puts a new drawing into the folder as a new item, version 1', async () => {
    const bytes = drawing()
    const answer = await post(client, {
      projectId: cloud.alpha,
      folderId: cloud.docs,
      file: { bytes, name: 'plan.dwg' },
    })
    expect(answer.status).toBe(201)
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/)
    const body = (await answer.json()) as Uploaded
    expect(body).toEqual({
      itemId: makeId('item', 'Acme/Alpha/Docs/plan.dwg'),
      versionNumber: 1,
      fileName: 'plan.dwg',
    })
    expect(new Uint8Array(await readFile(join(cloud.root, 'Acme/Alpha/Docs/plan.dwg')))).toEqual(
      bytes,
    )
    // The tree shows it, with the signed-in user as the author.
    const listed = await cloud.contents(cloud.alpha, cloud.docs)
    expect(listed.find((x) => x.attributes.displayName === 'plan.dwg')?.id).toBe(body.itemId)
    const versions = await versionsOf(body.itemId)
    expect(versions.map((v) => [v.attributes.versionNumber, v.attributes.storageSize])).toEqual([
      [1, bytes.byteLength],
    ])
    expect(versions[0]?.attributes.lastModifiedUserName).toBe('Test User')
  })

  it('adds the next version when the name exists in the folder', async () => {
    const answer = await post(client, {
      projectId: cloud.alpha,
      folderId: cloud.docs,
      file: { bytes: dwgHeader(300), name: 'plan.dwg' },
    })
    expect(answer.status).toBe(201)
    const body = (await answer.json()) as Uploaded
    expect(body).toEqual({
      itemId: makeId('item', 'Acme/Alpha/Docs/plan.dwg'),
      versionNumber: 2,
      fileName: 'plan.dwg',
    })
    expect((await versionsOf(body.itemId)).map((v) => v.attributes.versionNumber)).toEqual([2, 1])
  })

  it('with itemId, adds the next version of that item under its own name', async () => {
    const itemId = makeId('item', 'Acme/Alpha/Docs/plan.dwg')
    const answer = await post(client, {
      projectId: cloud.alpha,
      folderId: cloud.docs,
      itemId,
      file: { bytes: dwgHeader(400), name: 'Plan (revised).DWG' },
    })
    expect(answer.status).toBe(201)
    expect(await answer.json()).toEqual({ itemId, versionNumber: 3, fileName: 'plan.dwg' })
    expect((await versionsOf(itemId)).map((v) => v.attributes.storageSize)).toEqual([
      400,
      300,
      drawing().byteLength,
    ])
    expect(await readdir(join(cloud.root, 'Acme/Alpha/Docs'))).not.toContain('Plan (revised).DWG')
  })

  it('takes a name whose BOQ name has 255 bytes', async () => {
    const name = `${'x'.repeat(246)}.dwg`
    const answer = await post(client, {
      projectId: cloud.alpha,
      folderId: cloud.docs,
      file: { bytes: dwgHeader(), name },
    })
    expect(answer.status).toBe(201)
    expect(((await answer.json()) as Uploaded).fileName).toBe(name)
  })

  describe('names that look the same (é composed, NFC, or decomposed, NFD)', () => {
    const nfc = (name: string) => name.normalize('NFC')
    const nfd = (name: string) => name.normalize('NFD')
    const upload = (name: string, size = 256) =>
      post(client, {
        projectId: cloud.alpha,
        folderId: cloud.docs,
        file: { bytes: dwgHeader(size), name },
      }).then(async (answer) => ({
        status: answer.status,
        body: (await answer.json()) as Uploaded,
      }))
    const docsNames = async () =>
      (await readdir(join(cloud.root, 'Acme/Alpha/Docs'))).filter((n) => !n.startsWith('.'))

    it('are written composed (NFC)', async () => {
      const { status, body } = await upload(nfd('Noël.dwg'))
      expect(status).toBe(201)
      expect(body).toMatchObject({ versionNumber: 1, fileName: nfc('Noël.dwg') })
      expect(await docsNames()).toContain(nfc('Noël.dwg'))
      expect(await docsNames()).not.toContain(nfd('Noël.dwg'))
    })

    it('are one item: the decomposed form of an existing name is its next version', async () => {
      const first = await upload(nfc('Café.dwg'))
      const second = await upload(nfd('Café.dwg'), 300)
      expect(second.status).toBe(201)
      expect(second.body).toEqual({
        itemId: first.body.itemId,
        versionNumber: 2,
        fileName: nfc('Café.dwg'),
      })
      expect((await docsNames()).filter((n) => nfc(n) === nfc('Café.dwg'))).toEqual([
        nfc('Café.dwg'),
      ])
    })

    it('are one item with a file dropped in by hand under its decomposed name', async () => {
      await writeFile(join(cloud.root, 'Acme/Alpha/Docs', nfd('Évier.dwg')), dwgHeader())
      const { status, body } = await upload(nfc('Évier.dwg'), 300)
      expect(status).toBe(201)
      expect(body).toEqual({
        itemId: makeId('item', `Acme/Alpha/Docs/${nfd('Évier.dwg')}`),
        versionNumber: 2,
        fileName: nfd('Évier.dwg'),
      })
      expect((await docsNames()).filter((n) => nfc(n) === nfc('Évier.dwg'))).toEqual([
        nfd('Évier.dwg'),
      ])
    })
  })

  describe('refuses, writing nothing', () => {
    const refusals: [string, () => Promise<Response>, number, RegExp][] = []
    const refuse = (what: string, send: () => Promise<Response>, status: number, reason: RegExp) =>
      refusals.push([what, send, status, reason])
    const named =
      (name: string, bytes = dwgHeader()) =>
      () =>
        post(client, { projectId: cloud.alpha, folderId: cloud.docs, file: { bytes, name } })

    // Names: exactly `.dwg`, visible, a name and not a path.
    refuse('a right-to-left override', named('invoice\u202Egwd.dwg'), 400, /invisible/)
    for (const ch of [
      '\u202A',
      '\u202B',
      '\u202C',
      '\u202D',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200E',
      '\u200F',
      '\u0085',
      '\u2028',
      '\u2029',
      '\u200B',
      '\uFEFF',
    ]) {
      const code = `U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`
      refuse(`a name with ${code}`, named(`plan${ch}.dwg`), 400, /invisible/)
    }
    // A control character is no header text: the form's parser refuses the part before the name.
    refuse('a name with U+0007', named('plan\u0007.dwg'), 400, /control character in the file name/)
    refuse('PLAN.DWG (upper-case extension)', named('PLAN.DWG'), 400, /"\.dwg" exactly/)
    refuse('a .pdf name', named('plan.pdf'), 400, /Only \.dwg drawings/)
    refuse('plan.dwg.pdf', named('plan.dwg.pdf'), 400, /Only \.dwg drawings/)
    refuse('a path', named('../plan.dwg'), 400, /is a path/)
    refuse('a Windows path', named('C:\\drawings\\plan.dwg'), 400, /is a path/)
    refuse('only the extension', named('.dwg'), 400, /dot/)
    refuse('only spaces before .dwg', named('   .dwg'), 400, /no name before/)
    refuse('only dots', named('...'), 400, /no letters or digits/)
    refuse('only spaces', named('   '), 400, /no letters or digits/)
    refuse('a hidden name', named('.plan.dwg'), 400, /starts with a dot/)
    refuse('a name too long', named(`${'x'.repeat(300)}.dwg`), 400, /too long/)
    // 251 bytes: its BOQ, `<name> BOQ.xlsx`, would have 256, and could not be written beside it.
    refuse(
      'a name whose BOQ name would be too long',
      named(`${'x'.repeat(247)}.dwg`),
      400,
      /BOQ\.xlsx", would have 256 bytes: a file name has at most 255 bytes \(UTF-8\)/,
    )
    refuse(
      'a name of 2-byte letters whose BOQ name would be too long',
      named(`${'é'.repeat(124)}.dwg`),
      400,
      /at most 255 bytes/,
    )
    // Names Windows and shared drives refuse.
    for (const name of ['CON.dwg', 'nul.dwg', 'COM1.dwg', 'Lpt9.dwg', 'aux.old.dwg', 'PRN.dwg']) {
      refuse(name, named(name), 400, /Windows keeps for a device/)
    }
    for (const ch of '<>:"|?*') {
      refuse(`a name with ${ch}`, named(`plan${ch}1.dwg`), 400, /Windows and shared drives refuse/)
    }
    refuse('a name ending in a dot', named('plan.dwg.'), 400, /ends in a dot/)
    refuse('a name ending in a space', named('plan.dwg '), 400, /ends in a space/)
    // Bytes: a DWG the reader knows, whatever the name says.
    refuse(
      'a PDF renamed .dwg',
      named('report.dwg', new TextEncoder().encode('%PDF-1.7\n% fake pdf\n')),
      422,
      /not a DWG file \(it looks like a PDF document\)/,
    )
    refuse(
      'a DXF named .dwg',
      named('drawing.dwg', new TextEncoder().encode('0\nSECTION\n2\nHEADER\n0\nENDSEC\n0\nEOF\n')),
      422,
      /not a DWG file \(it is a DXF drawing/,
    )
    refuse('an empty file', named('empty.dwg', new Uint8Array(0)), 422, /the file is empty/)
    refuse(
      'a DWG too old to read',
      named('old.dwg', new TextEncoder().encode(`AC1004${' '.repeat(200)}`)),
      422,
      /unsupported DWG version AC1004/,
    )
    // Ids, as the local cloud answers them.
    refuse(
      'a project that does not exist',
      () =>
        post(client, {
          projectId: makeId('project', 'Acme/Nope'),
          folderId: cloud.docs,
          file: { bytes: dwgHeader(), name: 'x.dwg' },
        }),
      404,
      /^Project not found\.$/,
    )
    refuse(
      'a folder of another project',
      () =>
        post(client, {
          projectId: cloud.alpha,
          folderId: cloud.other,
          file: { bytes: dwgHeader(), name: 'x.dwg' },
        }),
      404,
      /^Folder not found\.$/,
    )
    refuse(
      'a folder id that leaves the cloud',
      () =>
        post(client, {
          projectId: cloud.alpha,
          folderId: makeId('folder', 'Acme/Alpha/../../..'),
          file: { bytes: dwgHeader(), name: 'x.dwg' },
        }),
      404,
      /^Folder not found\.$/,
    )
    refuse(
      'an item of a subfolder',
      () =>
        post(client, {
          projectId: cloud.alpha,
          folderId: cloud.docs,
          itemId: cloud.deep,
          file: { bytes: dwgHeader(), name: 'x.dwg' },
        }),
      404,
      /^Item not found\.$/,
    )
    refuse(
      'an item that does not exist',
      () =>
        post(client, {
          projectId: cloud.alpha,
          folderId: cloud.docs,
          itemId: makeId('item', 'Acme/Alpha/Docs/gone.dwg'),
          file: { bytes: dwgHeader(), name: 'gone.dwg' },
        }),
      404,
      /^Item not found\.$/,
    )
    // The form itself.
    refuse(
      'no file',
      () => post(client, { projectId: cloud.alpha, folderId: cloud.docs }),
      400,
      /form field "file"/,
    )
    refuse(
      'no folderId',
      () => post(client, { projectId: cloud.alpha, file: { bytes: dwgHeader(), name: 'x.dwg' } }),
      400,
      /folderId is missing/,
    )
    refuse(
      'a JSON body',
      () =>
        client(UPLOAD, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ projectId: cloud.alpha, folderId: cloud.docs }),
        }),
      400,
      /multipart\/form-data/,
    )
    // Sign-in and anti-forgery.
    refuse(
      'no session',
      async () => {
        const stranger = createClient(server.url)
        await (await stranger('/api/aps/auth/token')).body?.cancel()
        return post(stranger, {
          projectId: cloud.alpha,
          folderId: cloud.docs,
          file: { bytes: dwgHeader(), name: 'x.dwg' },
        })
      },
      401,
      /not signed in/,
    )
    refuse(
      'a wrong X-XSRF-TOKEN',
      () =>
        post(
          client,
          {
            projectId: cloud.alpha,
            folderId: cloud.docs,
            file: { bytes: dwgHeader(), name: 'x.dwg' },
          },
          { 'x-xsrf-token': 'forged' },
        ),
      403,
      /X-XSRF-TOKEN/,
    )

    it.each(refusals)('%s', async (_what, send, status, reason) => {
      const before = await snapshot(cloud.root)
      const answer = await send()
      const text = await answer.text()
      expect({ status: answer.status, text }).toMatchObject({
        status,
        text: expect.stringMatching(reason),
      })
      expect(answer.headers.get('content-type')).toMatch(/^text\/plain/)
      expect(await snapshot(cloud.root)).toEqual(before)
    })
  })
})

describe('BOQ_MAX_FILE_MB', () => {
  // 0.05 MB = 52,429 bytes; the form may carry 64 KiB more for its other fields.
  const LIMIT = Math.round(0.05 * 1024 * 1024)
  let server: TestServer
  let client: TestClient
  let cloud: Awaited<ReturnType<typeof prepareCloud>>

  beforeAll(async () => {
    server = await startTestServer({ env: { BOQ_MAX_FILE_MB: '0.05' } })
    client = await signIn(server.url)
    cloud = await prepareCloud(server, client)
  })
  afterAll(() => server.close())

  const upload = (bytes: Uint8Array, name: string) =>
    post(client, { projectId: cloud.alpha, folderId: cloud.docs, file: { bytes, name } })

  it('takes a drawing of the limit', async () => {
    const answer = await upload(dwgHeader(LIMIT), 'at-limit.dwg')
    expect(answer.status).toBe(201)
  })

  it('refuses a drawing one byte over the limit (413), writing nothing', async () => {
    const before = await snapshot(cloud.root)
    const answer = await upload(dwgHeader(LIMIT + 1), 'over.dwg')
    expect(answer.status).toBe(413)
    expect(await answer.text()).toBe(
      'The upload is too large: the largest drawing BOQ accepts is 0.05 MB (BOQ_MAX_FILE_MB).',
    )
    expect(await snapshot(cloud.root)).toEqual(before)
  })

  it('refuses a body announced larger than the limit without reading it', async () => {
    const before = await snapshot(cloud.root)
    const answer = await upload(dwgHeader(16 * 1024 * 1024), 'huge.dwg')
    expect(answer.status).toBe(413)
    expect(await answer.text()).toBe(
      'The upload is too large: the largest drawing BOQ accepts is 0.05 MB (BOQ_MAX_FILE_MB).',
    )
    expect(await snapshot(cloud.root)).toEqual(before)
  })

  it('stops reading a body sent without a length once it passes the limit', async () => {
    const before = await snapshot(cloud.root)
    const boundary = 'boq-test-boundary'
    const head = new TextEncoder().encode(
      [
        `--${boundary}`,
        'Content-Disposition: form-data; name="projectId"',
        '',
        cloud.alpha,
        `--${boundary}`,
        'Content-Disposition: form-data; name="folderId"',
        '',
        cloud.docs,
        `--${boundary}`,
        'Content-Disposition: form-data; name="file"; filename="endless.dwg"',
        'Content-Type: application/octet-stream',
        '',
        'AC1032',
      ].join('\r\n'),
    )
    // Chunked (no Content-Length) and far larger than the limit: 64 MB if the server read it all.
    const total = 64 * 1024 * 1024
    let sent = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) {
          sent += head.byteLength
          return controller.enqueue(head)
        }
        if (sent >= total) return controller.close()
        sent += 64 * 1024
        controller.enqueue(new Uint8Array(64 * 1024))
      },
    })
    const answer = await client(UPLOAD, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: stream,
      duplex: 'half',
    } as RequestInit)
    expect(answer.status).toBe(413)
    expect(await answer.text()).toMatch(/^The upload is too large/)
    expect(sent).toBeLessThan(total / 4)
    expect(await snapshot(cloud.root)).toEqual(before)
  })
})

describe('in Autodesk mode', () => {
  it('answers 404: upload is for the local cloud only; GET says it is not available', async () => {
    const product = await startApsProduct()
    try {
      const client = await signInThroughFake(product.server.url)
      const answer = await post(client, {
        projectId: 'b.project',
        folderId: 'urn:adsk.wipprod:fs.folder:co.x',
        file: { bytes: dwgHeader(), name: 'plan.dwg' },
      })
      expect(answer.status).toBe(404)
      expect(await answer.text()).toBe('Not found.')
      // The app asks first, and offers no upload: a 200, so the browser logs no failed request.
      const asked = await client(UPLOAD)
      expect(asked.status).toBe(200)
      expect(await asked.json()).toEqual({ available: false })
    } finally {
      await product.close()
    }
  })
})
