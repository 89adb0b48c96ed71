import { describe, expect, it } from 'vitest'
import { extensionOf, extractBlocker, isExtractableName } from './extract-rule'

describe('Extract enabling rule', () => {
  it.each([
    ['plan.dwg', '.dwg', true],
    ['a.b.dwg', '.dwg', true],
    ['PLAN.DWG', '.DWG', false],
    ['plan.Dwg', '.Dwg', false],
    ['README', '', false],
    ['plan.dwg.pdf', '.pdf', false],
    ['.dwg', '.dwg', true],
    ['plan.dwg ', '.dwg ', false],
  ])('%s → extension %j, extractable %s', (name, extension, extractable) => {
    expect(extensionOf(name)).toBe(extension)
    expect(isExtractableName(name)).toBe(extractable)
  })
})

describe('why Extract BOQ is disabled', () => {
  const version = (fileName: string) =>
    ({
      kind: 'version',
      request: { fileName, fileStorageId: 's', fileFolderId: 'f', projectId: 'p' },
    }) as const

  it('names nothing when the rule lets the version through', () => {
    expect(extractBlocker(version('plan.dwg'))).toBeNull()
    expect(extractBlocker(version('a.b.dwg'))).toBeNull()
  })

  it.each([
    [null, 'Select a version of a .dwg drawing in the tree.'],
    [
      { kind: 'hub', name: 'Demo Hub' },
      'Select a version of a drawing: open the hub, then an item, to see its versions.',
    ],
    [
      { kind: 'folder', name: 'Plans' },
      'Select a version of a drawing: open the folder, then an item, to see its versions.',
    ],
    [
      { kind: 'item', name: 'plan.dwg' },
      'Select a version of a drawing (expand the item to see its versions).',
    ],
    [
      version('PLAN.DWG'),
      'Only .dwg drawings can be extracted: PLAN.DWG ends in .DWG; rename it to .dwg.',
    ],
    [
      version('plan.Dwg'),
      'Only .dwg drawings can be extracted: plan.Dwg ends in .Dwg; rename it to .dwg.',
    ],
    [
      version('plan.dwg '),
      'Only .dwg drawings can be extracted: plan.dwg  ends in ".dwg "; rename it to .dwg.',
    ],
    [version('plan.pdf'), 'Only .dwg drawings can be extracted: plan.pdf is a .pdf file.'],
    [version('README'), 'Only .dwg drawings can be extracted: README has no extension.'],
  ] as const)('%j → %s', (selection, reason) => {
    expect(extractBlocker(selection)).toBe(reason)
  })

  it('waits for a version whose file is still being copied in', () => {
    const arriving = { ...version('plan.dwg'), stillArriving: true }
    expect(extractBlocker(arriving)).toBe(
      'plan.dwg is still being copied into its folder: it can be extracted once the copy is whole.',
    )
  })

  it('agrees with the rule on every name', () => {
    for (const name of ['plan.dwg', 'PLAN.DWG', 'README', 'x.dwg.pdf', '.dwg', 'plan.dwg ']) {
      expect(extractBlocker(version(name)) === null).toBe(isExtractableName(name))
    }
  })
})
