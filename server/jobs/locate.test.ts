import { describe, expect, it } from 'vitest'
import { makeId, makeStorageId } from '../cloud/local/ids.ts'
import type { CloudBackend } from '../cloud/types.ts'
import { findVersionNumber, locateSource } from './locate.ts'
import { contextFor, createFakeCloud, resource } from './testing/fakes.ts'

const ctx = contextFor('ann')

/** A cloud answering lists as Autodesk does (its ids carry no paths). */
function listingCloud() {
  const fake = createFakeCloud()
  const cloud: CloudBackend = { ...fake.cloud, kind: 'aps' }
  fake.lists.hubs.push(resource('hubs', 'b.h1', { name: 'One' }))
  fake.lists.hubs.push(resource('hubs', 'b.h2', { name: 'Two' }))
  fake.lists.projects.set('b.h2', [resource('projects', 'b.p1', { name: 'Tower' })])
  fake.lists.contents.set('b.p1', [
    resource('folders', 'urn:top', { name: 'Project Files', displayName: 'Project Files' }),
  ])
  return { fake, cloud }
}

describe('where a job’s drawing sits', () => {
  it('reads everything from the local cloud’s ids, without listing anything', async () => {
    const fake = createFakeCloud()
    const folderRel = 'Demo Hub/Harbour Residences/Project Files/Architecture/Level 1'
    const place = await locateSource(fake.cloud, ctx, {
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
    expect(fake.listCalls).toEqual([])
  })

  it('does not take a local folder of another project for this one', async () => {
    const fake = createFakeCloud()
    const place = await locateSource(fake.cloud, ctx, {
      projectId: makeId('project', 'Demo Hub/Other'),
      fileFolderId: makeId('folder', 'Demo Hub/Harbour Residences/Project Files'),
      fileStorageId: 'urn:x',
    })
    expect(place).toEqual({ folder: {} })
  })

  it('finds the hub, and the name and chain of a top folder, from the lists elsewhere', async () => {
    const { fake, cloud } = listingCloud()
    const request = { projectId: 'b.p1', fileFolderId: 'urn:top', fileStorageId: 'urn:s' }
    expect(await locateSource(cloud, ctx, request)).toEqual({
      folder: { name: 'Project Files', hubId: 'b.h2', path: ['urn:top'] },
    })
    expect(fake.listCalls).toEqual(['hubs', 'projects b.h1', 'projects b.h2', 'contents b.p1'])
  })

  it('keeps only the hub for a deeper folder (its chain is not cheap to learn)', async () => {
    const { cloud } = listingCloud()
    const request = { projectId: 'b.p1', fileFolderId: 'urn:deep', fileStorageId: 'urn:s' }
    expect(await locateSource(cloud, ctx, request)).toEqual({ folder: { hubId: 'b.h2' } })
  })

  it('gives up quietly when the cloud cannot tell', async () => {
    const { fake, cloud } = listingCloud()
    fake.revoke(ctx.accessToken)
    const request = { projectId: 'b.p1', fileFolderId: 'urn:top', fileStorageId: 'urn:s' }
    expect(await locateSource(cloud, ctx, request)).toEqual({ folder: {} })
  })

  it('finds the version number through the cloud’s lookup by storage id, near the folder and name', async () => {
    const { fake, cloud } = listingCloud()
    fake.lists.contents.set('urn:deep', [
      resource('folders', 'urn:sub', { name: 'plan.dwg' }),
      resource('items', 'urn:other', { displayName: 'other.dwg' }),
      resource('items', 'urn:plan', { displayName: 'plan.dwg' }),
    ])
    fake.lists.versions.set('urn:plan', [
      resource('versions', 'urn:v3', { versionNumber: 3 }, 'urn:s3'),
      resource('versions', 'urn:v2', { versionNumber: 2 }, 'urn:s2'),
    ])
    const job = { projectId: 'b.p1', fileFolderId: 'urn:deep', fileName: 'plan.dwg' }
    expect(await findVersionNumber(cloud, ctx, { ...job, fileStorageId: 'urn:s2' })).toBe(2)
    expect(await findVersionNumber(cloud, ctx, { ...job, fileStorageId: 'urn:gone' })).toBe(
      undefined,
    )
    expect(
      await findVersionNumber(cloud, ctx, {
        ...job,
        fileName: 'other.dwg',
        fileStorageId: 'urn:s2',
      }),
    ).toBe(undefined)
    expect(fake.listCalls).toEqual(['version urn:s2', 'version urn:gone', 'version urn:s2'])
  })
})
