import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { TakeoffRule } from '#contract/takeoff-rules.ts'
import type { ExtractUnits } from '#contract/units.ts'
import { AppError } from '../errors.ts'
import { savedPricing } from '../rules/saved-pricing.ts'
import type { RulesStore } from '../rules/store/types.ts'
import {
  contextFor,
  createFakeCloud,
  createFakeExtractor,
  resource,
} from '../testing/jobs/fakes.ts'
import { openTempJobStore } from '../testing/jobs/temp-store.ts'
import { waitFor } from '../testing/jobs/wait.ts'
import { openTempRulesStore } from '../testing/rules/temp-store.ts'
import { SIGN_IN_EXPIRED } from './failure.ts'
import { type JobRunner, MAX_KEPT_WARNINGS, startJobRunner } from './runner.ts'
import type { JobRecord, JobStore, NewJob } from './types.ts'

let store: JobStore
let rules: RulesStore
let runner: JobRunner | undefined
let fake: ReturnType<typeof createFakeCloud>
let engine: ReturnType<typeof createFakeExtractor>
const logged: string[] = []

beforeEach(async () => {
  store = await openTempJobStore('boq-jobs-runner-')
  rules = await openTempRulesStore('boq-jobs-runner-rules-')
  fake = createFakeCloud()
  fake.folders.add('p1/f1')
  engine = createFakeExtractor()
  logged.length = 0
})

afterEach(async () => {
  await runner?.close()
  runner = undefined
  await store.close()
  await rules.close()
})

function start(options: { concurrency?: number; maxFileBytes?: number } = {}) {
  runner = startJobRunner({
    store,
    cloud: fake.cloud,
    extractor: engine.extractor,
    concurrency: options.concurrency ?? 2,
    maxFileBytes: options.maxFileBytes ?? 1024,
    log: (message) => logged.push(message),
    // Read at each job: a test may replace the store's reads meanwhile.
    savedPricing: (projectId) => savedPricing(rules)(projectId),
  })
  return runner
}

async function submit(
  storageId: string,
  content: string,
  userId = 'ann',
  fileName = 'plan.dwg',
  units?: ExtractUnits,
  known: Pick<NewJob, 'fileVersionNumber' | 'folder'> = {},
) {
  fake.files.set(storageId, new TextEncoder().encode(content))
  const { job } = await store.submit(
    {
      fileName,
      projectId: 'p1',
      fileFolderId: 'f1',
      fileStorageId: storageId,
      ...(units ? { units } : {}),
      ...known,
      context: contextFor(userId),
    },
    { maxActivePerUser: 10 },
  )
  return job
}

function finished(id: string): Promise<JobRecord> {
  return waitFor(async () => {
    const job = await store.get(id)
    return job && (job.status === 'succeeded' || job.status === 'failed') ? job : undefined
  }, `job ${id} to finish`)
}

describe('job runner', () => {
  it('downloads, extracts, writes the BOQ back as an item then a version, and keeps the outputs', async () => {
    start()
    const first = await finished((await submit('s1', 'drawing')).id)
    expect(first).toMatchObject({
      status: 'succeeded',
      result: { fileName: 'plan BOQ.xlsx', itemId: 'item-1', versionNumber: 1 },
    })
    const item = fake.items.get('p1/f1/plan BOQ.xlsx')
    expect(new TextDecoder().decode(item?.versions[0])).toBe('XLSX of plan.dwg')
    expect(new TextDecoder().decode(await store.readResult(first.id, 'csv'))).toContain(
      'plan.dwg,1',
    )

    const second = await finished((await submit('s1', 'drawing')).id)
    expect(second.result).toEqual({
      fileName: 'plan BOQ.xlsx',
      itemId: 'item-1',
      versionNumber: 2,
      warnings: [],
      warningCount: 0,
      jsonKept: true,
    })
  })

  it("gives a later version's workbook the bill of the latest earlier version it has to compare with", async () => {
    start()
    const v1 = await finished(
      (await submit('s1', 'one', 'ann', 'plan.dwg', undefined, { fileVersionNumber: 1 })).id,
    )
    const v2 = await finished(
      (await submit('s2', 'two', 'ann', 'plan.dwg', undefined, { fileVersionNumber: 2 })).id,
    )
    // Another drawing, and another user's version 3 of this one, have nothing to compare with here.
    const other = await finished(
      (await submit('s3', 'x', 'ann', 'other.dwg', undefined, { fileVersionNumber: 5 })).id,
    )
    const bobs = await finished(
      (await submit('s4', 'three', 'bob', 'plan.dwg', undefined, { fileVersionNumber: 3 })).id,
    )
    const v3 = await finished(
      (await submit('s5', 'three', 'ann', 'plan.dwg', undefined, { fileVersionNumber: 3 })).id,
    )

    expect(v1.result?.comparedWith).toBeUndefined()
    expect(other.result?.comparedWith).toBeUndefined()
    expect(bobs.result?.comparedWith).toBeUndefined()
    expect(v2.result?.comparedWith).toEqual({
      jobId: v1.id,
      fileName: 'plan.dwg',
      versionNumber: 1,
    })
    expect(v3.result?.comparedWith).toEqual({
      jobId: v2.id,
      fileName: 'plan.dwg',
      versionNumber: 2,
    })
    const given = engine.inputs.at(-1)?.changesFrom
    expect(given?.to).toEqual({ jobId: v3.id, fileName: 'plan.dwg', versionNumber: 3 })
    expect(new TextDecoder().decode(given?.json)).toBe('{"fake":"plan.dwg"}\n')
  })

  it("keeps the bill's warnings with the result: the first few, and how many there are", async () => {
    start({ maxFileBytes: 10_000 })
    const two = await finished((await submit('s1', 'WARN|Block "A" is unresolved.|No units.')).id)
    expect(two.result).toMatchObject({
      warnings: ['Block "A" is unresolved.', 'No units.'],
      warningCount: 2,
    })
    const many = Array.from({ length: 45 }, (_, i) => `Warning ${i + 1}`)
    const long = 'x'.repeat(600)
    const lots = await finished((await submit('s2', `WARN|${long}|${many.join('|')}`)).id)
    expect(lots.result?.warningCount).toBe(46)
    expect(lots.result?.warnings).toHaveLength(MAX_KEPT_WARNINGS)
    expect(lots.result?.warnings?.[0]).toHaveLength(500)
    expect(lots.result?.warnings?.[1]).toBe('Warning 1')
  })

  it('looks the version number up when the job was recorded without it', async () => {
    fake.lists.contents.set('f1', [resource('items', 'i-plan', { displayName: 'plan.dwg' })])
    fake.lists.versions.set('i-plan', [
      resource('versions', 'v4', { versionNumber: 4 }, 's1'),
      resource('versions', 'v3', { versionNumber: 3 }, 's0'),
    ])
    start()
    const found = await submit('s1', 'drawing', 'ann', 'plan.dwg', undefined, {
      folder: { hubId: 'h1' },
    })
    expect(found.fileVersionNumber).toBeUndefined()
    expect(await finished(found.id)).toMatchObject({ status: 'succeeded', fileVersionNumber: 4 })

    // Recorded on a failed job too.
    const failed = await submit('s0', 'CORRUPT', 'ann', 'plan.dwg', undefined, {
      folder: { hubId: 'h1' },
    })
    expect(await finished(failed.id)).toMatchObject({ status: 'failed', fileVersionNumber: 3 })

    // Known at submit: nothing is listed.
    fake.listCalls.length = 0
    const known = await submit('s2', 'drawing', 'ann', 'plan.dwg', undefined, {
      fileVersionNumber: 7,
      folder: { hubId: 'h1' },
    })
    expect(await finished(known.id)).toMatchObject({ fileVersionNumber: 7 })
    expect(fake.listCalls).toEqual([])
  })

  it('runs the job all the same when the version number cannot be found', async () => {
    fake.cloud.storedVersion = async () => {
      throw new AppError(502, 'The cloud is down.')
    }
    start()
    const job = await submit('s1', 'drawing', 'ann', 'plan.dwg', undefined, {
      folder: { hubId: 'h1' },
    })
    const done = await finished(job.id)
    expect(done.status).toBe('succeeded')
    expect(done.fileVersionNumber).toBeUndefined()
  })

  it('hands the engine the units the job was asked with, and no options when none were', async () => {
    start({ concurrency: 1 })
    const imperial = await submit('s1', 'a', 'ann', 'a.dwg', {
      system: 'imperial',
      drawingUnits: 'mm',
    })
    const stated = await submit('s2', 'b', 'ann', 'b.dwg', { drawingUnits: 'cm' })
    const plain = await submit('s3', 'c', 'ann', 'c.dwg')
    for (const job of [imperial, stated, plain]) {
      expect((await finished(job.id)).status).toBe('succeeded')
    }
    expect(engine.inputs).toEqual([
      { fileName: 'a.dwg', options: { units: 'imperial', drawingUnits: 'mm' } },
      { fileName: 'b.dwg', options: { drawingUnits: 'cm' } },
      { fileName: 'c.dwg' },
    ])
    expect(await store.get(imperial.id)).toMatchObject({
      units: { system: 'imperial', drawingUnits: 'mm' },
    })
  })

  it("prices the bill with the project's saved rules and classification, and records their versions", async () => {
    const rule = { match: 'count', block: 'Door*', code: 'EX-10', description: 'Doors', unit: 'nr' }
    await rules.saveRules('p1', 'rules', 0, [rule as TakeoffRule], 'ann')
    await rules.saveRules('p1', 'rules', 1, [{ ...rule, rate: 40 } as TakeoffRule], 'bob')
    await rules.saveRules('p1', 'classification', 0, [{ code: 'EX-10', title: 'Doors' }], 'ann')
    await rules.saveRules('p2', 'rules', 0, [{ ...rule, rate: 99 } as TakeoffRule], 'ann')
    start({ concurrency: 1 })
    const priced = await finished((await submit('s1', 'drawing')).id)
    expect(priced.status).toBe('succeeded')
    expect(priced.pricedWith).toEqual({
      rulesVersion: 2,
      classificationVersion: 1,
      settingsVersion: 0,
    })
    expect(engine.inputs[0]?.pricing).toEqual({
      rules: [{ ...rule, rate: 40 }],
      classification: [{ code: 'EX-10', title: 'Doors' }],
      // The bill's header names them.
      versions: { rulesVersion: 2, classificationVersion: 1, settingsVersion: 0 },
    })
  })

  it('extracts without pricing when the project has no rules, and records that it had none', async () => {
    await rules.saveRules('p1', 'classification', 0, [{ code: 'EX-10', title: 'Doors' }], 'ann')
    start()
    const job = await finished((await submit('s1', 'drawing')).id)
    expect(job.status).toBe('succeeded')
    expect(job.pricedWith).toEqual({
      rulesVersion: 0,
      classificationVersion: 1,
      settingsVersion: 0,
    })
    expect(engine.inputs[0]?.pricing).toBeUndefined()
  })

  it('still extracts when the rules cannot be read, and says the bill is not priced', async () => {
    rules.rules = async () => {
      throw new Error('the store is unreachable')
    }
    start()
    const job = await finished((await submit('s1', 'drawing')).id)
    expect(job.status).toBe('succeeded')
    expect(job.result?.warnings).toEqual([
      "The bill is not priced: the project's takeoff rules could not be read. Price it again from the result page.",
    ])
    expect(logged).toContain(`jobs: could not read the takeoff rules for ${job.id}`)
    // Its bill of record was priced with no rules: the result page offers to re-price it.
    expect(job.pricedWith).toEqual({
      rulesVersion: 0,
      classificationVersion: 0,
      settingsVersion: 0,
    })
  })

  it('keeps the units of a job put back in the queue at shutdown for its re-run', async () => {
    const release = engine.hold()
    start()
    const job = await submit('s1', 'drawing', 'ann', 'plan.dwg', { system: 'metric' })
    await waitFor(async () => (await store.get(job.id))?.status === 'running', 'running')
    const closing = runner?.close()
    release()
    await closing
    engine = createFakeExtractor()
    start()
    expect((await finished(job.id)).status).toBe('succeeded')
    expect(engine.inputs).toEqual([{ fileName: 'plan.dwg', options: { units: 'metric' } }])
  })

  it('reports progress while running', async () => {
    const release = engine.hold()
    start()
    const job = await submit('s1', 'drawing')
    const progress = await waitFor(async () => {
      const p = (await store.get(job.id))?.progress
      return p !== undefined && p > 0.1 && p
    }, 'progress')
    expect(progress).toBeGreaterThan(0.1)
    expect(progress).toBeLessThan(1)
    release()
    expect((await finished(job.id)).status).toBe('succeeded')
  })

  it('fails a corrupt drawing with the engine reason, and a crashed worker, then goes on', async () => {
    start({ concurrency: 1 })
    const corrupt = await submit('s1', 'CORRUPT')
    const crash = await submit('s2', 'CRASH')
    const fine = await submit('s3', 'drawing')
    expect(await finished(corrupt.id)).toMatchObject({
      status: 'failed',
      error: 'Could not extract the BOQ of plan.dwg: The drawing is damaged and cannot be read.',
    })
    expect(await finished(crash.id)).toMatchObject({
      status: 'failed',
      error:
        'Could not extract the BOQ of plan.dwg: The reader crashed while reading this drawing.',
    })
    expect((await finished(fine.id)).status).toBe('succeeded')
  })

  it('does not show internal details of an unexpected error', async () => {
    start()
    const job = await finished((await submit('s1', 'THROW')).id)
    expect(job.error).toBe('The extraction failed unexpectedly.')
    expect(logged.join('\n')).toMatch(/failed while in extract/)
  })

  it('fails a drawing over the size limit with a clear reason', async () => {
    start({ maxFileBytes: 4 })
    const job = await finished((await submit('s1', 'drawing')).id)
    expect(job.error).toMatch(/largest drawing BOQ extracts is .* MB \(BOQ_MAX_FILE_MB\)/)
    expect(engine.seen).toEqual([])
  })

  it('asks the user to sign in again when the captured token is refused', async () => {
    fake.revoke('token-ann')
    start()
    const job = await finished((await submit('s1', 'drawing')).id)
    expect(job.error).toBe(SIGN_IN_EXPIRED)
  })

  it('reports a cloud refusal while writing back', async () => {
    fake.cloud.upload = async () => {
      throw new AppError(403, 'You cannot write to this folder.')
    }
    start()
    const job = await finished((await submit('s1', 'drawing')).id)
    expect(job.error).toBe(
      'The BOQ could not be written to the folder: You cannot write to this folder.',
    )
  })

  it('runs at most `concurrency` jobs at once', async () => {
    const release = fake.holdDownloads()
    start({ concurrency: 2 })
    const jobs = [await submit('s1', 'a'), await submit('s2', 'b'), await submit('s3', 'c')]
    await waitFor(async () => (await store.get(jobs[1].id))?.status === 'running', 'two running')
    expect((await store.get(jobs[2].id))?.status).toBe('queued')
    release()
    for (const job of jobs) expect((await finished(job.id)).status).toBe('succeeded')
  })

  it('puts a job that was running at shutdown back in the queue, and runs it on the next start', async () => {
    const release = engine.hold()
    start()
    const job = await submit('s1', 'drawing')
    await waitFor(async () => (await store.get(job.id))?.status === 'running', 'running')
    const closing = runner?.close()
    release()
    await closing
    expect(await store.get(job.id)).toMatchObject({ status: 'queued', attempts: 0 })

    engine = createFakeExtractor()
    start()
    expect((await finished(job.id)).status).toBe('succeeded')
  })

  it('puts a job back in the queue, unread, when stopped while it looked for its rules', async () => {
    let answer = () => {}
    const held = new Promise<void>((resolve) => {
      answer = resolve
    })
    let asked = () => {}
    const looking = new Promise<void>((resolve) => {
      asked = resolve
    })
    const read = rules.rules.bind(rules)
    rules.rules = async (projectId, kind) => {
      asked()
      await held
      return read(projectId, kind)
    }
    start()
    const job = await submit('s1', 'drawing')
    await looking
    const closing = runner?.close()
    answer()
    await closing
    runner = undefined
    expect(await store.get(job.id)).toMatchObject({ status: 'queued', attempts: 0 })
    expect(engine.seen).toEqual([])
  })

  it('runs a job a watch started with its owner’s context as it is now, not the lapsed one it was queued with', async () => {
    fake.files.set('w1', new TextEncoder().encode('watched drawing'))
    const { job } = await store.submit(
      {
        fileName: 'plan.dwg',
        projectId: 'p1',
        fileFolderId: 'f1',
        fileStorageId: 'w1',
        watchId: 'watch-1',
        context: contextFor('ann', 'lapsed'),
      },
      { maxActivePerUser: 10 },
    )
    fake.revoke('lapsed')
    const asked: string[] = []
    runner = startJobRunner({
      store,
      cloud: fake.cloud,
      extractor: engine.extractor,
      concurrency: 1,
      maxFileBytes: 1024,
      log: (message) => logged.push(message),
      freshContext: async (claimed) => {
        asked.push(claimed.id)
        return claimed.watchId ? contextFor('ann', 'renewed') : undefined
      },
    })
    expect(await finished(job.id)).toMatchObject({ status: 'succeeded' })
    expect(asked).toEqual([job.id])
  })
})
