import { describe, expect, it } from 'vitest'
import { makeId, makeStorageId } from './ids.ts'
import { locateByIds } from './locate.ts'

describe('where a local version sits', () => {
  it('is read from the ids, without listing anything', () => {
    const folderRel = 'Demo Hub/Harbour Residences/Project Files/Architecture/Level 1'
    const place = locateByIds({
      projectId: makeId('project', 'Demo Hub/Harbour Residences'),
      fileFolderId: makeId('folder', folderRel),
      fileStorageId: makeStorageId(`${folderRel}/plan.dwg`, 3),
    })
    expect(place).toEqual({
      fileVersionNumber: 3,
      folder: {
        name: 'Level 1',
        hubId: makeId('hub', 'Demo Hub'),
        path: [
          makeId('folder', 'Demo Hub/Harbour Residences/Project Files'),
          makeId('folder', 'Demo Hub/Harbour Residences/Project Files/Architecture'),
          makeId('folder', folderRel),
        ],
      },
    })
  })

  it('does not take a folder of another project for this one', () => {
    const place = locateByIds({
      projectId: makeId('project', 'Demo Hub/Other'),
      fileFolderId: makeId('folder', 'Demo Hub/Harbour Residences/Project Files'),
      fileStorageId: 'urn:x',
    })
    expect(place).toEqual({ folder: {} })
  })
})
