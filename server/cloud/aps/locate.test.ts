import { describe, expect, it } from 'vitest'
import { contextFor, createFakeCloud, resource } from '../../testing/jobs/fakes.ts'
import type { CloudBackend } from '../types.ts'
import { locateByListings } from './locate.ts'

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

describe('where a version sits in Autodesk', () => {
  it('finds the hub, and the name and chain of a top folder, from the lists elsewhere', async () => {
    const { fake, cloud } = listingCloud()
    const request = { projectId: 'b.p1', fileFolderId: 'urn:top', fileStorageId: 'urn:s' }
    expect(await locateByListings(cloud, ctx, request)).toEqual({
      folder: { name: 'Project Files', hubId: 'b.h2', path: ['urn:top'] },
    })
    expect(fake.listCalls).toEqual(['hubs', 'projects b.h1', 'projects b.h2', 'contents b.p1'])
  })

  it('keeps only the hub for a deeper folder (its chain is not cheap to learn)', async () => {
    const { cloud } = listingCloud()
    const request = { projectId: 'b.p1', fileFolderId: 'urn:deep', fileStorageId: 'urn:s' }
    expect(await locateByListings(cloud, ctx, request)).toEqual({ folder: { hubId: 'b.h2' } })
  })

  it('gives up quietly when the cloud cannot tell', async () => {
    const { fake, cloud } = listingCloud()
    fake.revoke(ctx.accessToken)
    const request = { projectId: 'b.p1', fileFolderId: 'urn:top', fileStorageId: 'urn:s' }
    expect(await locateByListings(cloud, ctx, request)).toEqual({ folder: {} })
  })
})
