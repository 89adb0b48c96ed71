import { describe, expect, it } from 'vitest'
import { VERSION_NOT_WHOLE } from '#contract/cloud.ts'
import { accWebView, bim360WebView, folder, item, version } from '../../../testing/fixtures'
import { folderIdFromWebView, toChildNodes } from './tree-nodes'

const FOLDER = 'urn:adsk.wipprod:fs.folder:co.AbC-123_x'

describe('folderIdFromWebView', () => {
  it('takes the folderUrn query value of an ACC link, decoded', () => {
    expect(folderIdFromWebView(accWebView('b.p1', FOLDER))).toBe(FOLDER)
  })

  it('takes the folders/{id}/detail path part of a BIM 360 link, decoded', () => {
    expect(folderIdFromWebView(bim360WebView('b.p1', FOLDER))).toBe(FOLDER)
  })

  it('prefers folderUrn when both are present', () => {
    const href = `https://x.test/folders/other/detail?folderUrn=${encodeURIComponent(FOLDER)}`
    expect(folderIdFromWebView(href)).toBe(FOLDER)
  })

  it('gives an empty id for a missing or unrelated link, and survives malformed escapes', () => {
    expect(folderIdFromWebView(undefined)).toBe('')
    expect(folderIdFromWebView('https://x.test/viewer/items/1')).toBe('')
    expect(folderIdFromWebView('https://x.test/?folderUrn=urn%ZZ')).toBe('urn%ZZ')
  })
})

describe('toChildNodes', () => {
  it('maps a version with everything Extract needs', () => {
    const v = version({
      displayName: 'a.dwg',
      versionNumber: 4,
      storageId: 'urn:adsk.objects:os.object:bucket/obj.dwg',
      webView: accWebView('b.p1', FOLDER),
    })
    const [node] = toChildNodes({ kind: 'item', hubId: 'b.h', projectId: 'b.p1', itemId: 'i' }, [v])
    expect(node).toMatchObject({
      kind: 'version',
      resourceId: v.id,
      href: v.links?.self?.href,
      storageId: 'urn:adsk.objects:os.object:bucket/obj.dwg',
      displayName: 'a.dwg',
      fileFolderId: FOLDER,
      projectId: 'b.p1',
      hubId: 'b.h',
      stillArriving: false,
      children: null,
    })
  })

  it('marks a version whose file is not whole yet', () => {
    const place = { kind: 'item', hubId: 'b.h', projectId: 'b.p1', itemId: 'i' } as const
    const [arriving, whole] = toChildNodes(place, [
      version({ displayName: 'a.dwg', processState: VERSION_NOT_WHOLE }),
      version({ displayName: 'a.dwg', processState: 'PROCESSING_COMPLETE' }),
    ])
    expect(arriving).toMatchObject({ kind: 'version', stillArriving: true })
    expect(whole).toMatchObject({ kind: 'version', stillArriving: false })
  })

  it('keeps folders and items of a folder, with their titles, and skips other types', () => {
    const nodes = toChildNodes({ kind: 'folder', hubId: 'b.h', projectId: 'b.p', folderId: 'f' }, [
      folder('Docs'),
      item('plan.dwg'),
      { id: 'x', type: 'commands', attributes: {} },
    ])
    expect(nodes.map((n) => [n.kind, n.name])).toEqual([
      ['folder', 'Docs'],
      ['item', 'plan.dwg'],
    ])
    expect(nodes.every((n) => Array.isArray(n.children) && n.children.length === 0)).toBe(true)
  })
})
