import { describe, expect, it } from 'vitest'
import { contextFor, createFakeCloud, resource } from '../testing/jobs/fakes.ts'
import { findVersionNumber } from './locate.ts'

const ctx = contextFor('ann')

describe('the number of a job’s version', () => {
  it('finds the version number through the cloud’s lookup by storage id, near the folder and name', async () => {
    const fake = createFakeCloud()
    const { cloud } = fake
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
