import { describe, expect, it } from 'vitest'
import { CloudListError, readCloudList } from './cloud.ts'

const hub = {
  type: 'hubs',
  id: 'b.1',
  attributes: { name: 'Hub', region: 'US' },
  links: { self: { href: 'https://cloud.test/hubs/b.1' } },
}
const version = {
  type: 'versions',
  id: 'urn:v?version=2',
  attributes: {
    displayName: 'plan.dwg',
    versionNumber: 2,
    createTime: '2024-03-04T05:06:07.000Z',
    lastModifiedUserName: 'Ada',
    extension: { type: 'versions:autodesk.bim360:File', version: '1.0' },
  },
  links: {
    self: { href: 'https://cloud.test/v' },
    webView: { href: 'https://acc.autodesk.com/x?folderUrn=f' },
  },
  relationships: {
    storage: { data: { type: 'objects', id: 'urn:adsk.objects:os.object:b/o.dwg' }, meta: {} },
    refs: { links: { self: { href: 'https://cloud.test/refs' } } },
  },
  meta: { anything: true },
}

describe('readCloudList', () => {
  it('reads a bare array, a {data} document and one with links and jsonapi alike', () => {
    const forms = [
      [hub, version],
      { data: [hub, version] },
      {
        jsonapi: { version: '1.0' },
        links: { self: { href: 'https://x.test' } },
        data: [hub, version],
      },
    ]
    for (const form of forms) expect(readCloudList(form)).toEqual([hub, version])
  })

  it('reads an empty list in either form', () => {
    expect(readCloudList([])).toEqual([])
    expect(readCloudList({ data: [] })).toEqual([])
  })

  it('keeps what it does not check, and gives a resource without attributes empty ones', () => {
    const [read] = readCloudList([{ type: 'commands', id: 'c', meta: { x: 1 } }])
    expect(read).toEqual({ type: 'commands', id: 'c', attributes: {}, meta: { x: 1 } })
    expect(readCloudList([version])[0]?.relationships?.storage?.data?.id).toBe(
      'urn:adsk.objects:os.object:b/o.dwg',
    )
  })

  it('reads a to-many relationship, which nothing reads, as none', () => {
    const item = {
      type: 'items',
      id: 'i',
      relationships: { refs: { data: [{ type: 'x', id: '1' }] } },
    }
    expect(readCloudList([item])[0]?.relationships?.refs?.data).toBeUndefined()
  })

  it('says plainly when the answer is neither form', () => {
    for (const [body, got] of [
      [{ hubs: [] }, 'an object without "data" (keys: hubs)'],
      [{}, 'an object without "data" (keys: none)'],
      ['[]', 'string'],
      [null, 'null'],
      [42, 'number'],
    ] as const) {
      expect(() => readCloudList(body)).toThrow(CloudListError)
      expect(() => readCloudList(body)).toThrow(
        `Expected a list of resources (a JSON array, or an object whose "data" is one), got ${got}.`,
      )
    }
  })

  it('names the first resource that is not one, and where', () => {
    expect(() => readCloudList([hub, { type: 'hubs' }])).toThrow(
      /^Not a list of resources: at 1\.id: /,
    )
    expect(() => readCloudList({ data: [hub, { id: 7, type: 'hubs' }] })).toThrow(
      /at data\.1\.id: Invalid type: Expected string but received 7/,
    )
    expect(() => readCloudList({ data: { id: 'b.1' } })).toThrow(/at data: Invalid type/)
    expect(() =>
      readCloudList([{ ...version, attributes: { ...version.attributes, versionNumber: '2' } }]),
    ).toThrow(/at 0\.attributes\.versionNumber: /)
    expect(() =>
      readCloudList([{ ...hub, links: { self: 'https://cloud.test/hubs/b.1' } }]),
    ).toThrow(/at 0\.links\.self: /)
  })
})
