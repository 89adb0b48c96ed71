import { readFile, rm } from 'node:fs/promises'
import { writeFileAtomic } from '../lib/atomic-write.ts'
import { resultWithBill } from './bill-of-record.ts'
import type { JobRecords } from './embedded-records.ts'
import type { JobStore, ResultFiles } from './types.ts'

/** The files of a bill of record, replaced together when it is priced again. */
const BILL_FORMATS = ['xlsx', 'csv', 'json', 'part'] as const

/**
 * A succeeded job's files beside its record: written before the record says so, read as kept,
 * a re-priced bill of record written under names of its own before the record names it.
 */
export function resultFiles(records: JobRecords) {
  const { jobs, resultPath, revisionOf } = records
  /** Bills of record being kept, by job: one at a time per job. */
  const keeping = new Map<string, Promise<void>>()

  const keepBill: JobStore['keepBillOfRecord'] = async (id, bill) => {
    const stored = records.existing(id)
    const result = resultWithBill(stored.job, bill)
    const before = stored.billRevision ?? 0
    const revision = before + 1
    // The new files first, under names of their own; the record then names them (a bill given
    // without its part has none: the part of the bill it replaces is not its part).
    await Promise.all(
      BILL_FORMATS.map((format) => {
        const bytes = bill.files[format]
        return bytes && writeFileAtomic(resultPath(id, format, revision), bytes)
      }),
    )
    await records.commit(id, { result, pricedWith: { ...bill.pricedWith } }, undefined, revision)
    await Promise.all(
      BILL_FORMATS.map((format) => rm(resultPath(id, format, before), { force: true })),
    )
  }

  return {
    keeping,
    async write(id: string, files: ResultFiles): Promise<void> {
      await Promise.all([
        writeFileAtomic(resultPath(id, 'xlsx'), files.xlsx),
        writeFileAtomic(resultPath(id, 'csv'), files.csv),
        writeFileAtomic(resultPath(id, 'json'), files.json),
        files.geometry ? writeFileAtomic(resultPath(id, 'geometry'), files.geometry) : undefined,
        files.part ? writeFileAtomic(resultPath(id, 'part'), files.part) : undefined,
      ])
    },

    keepBillOfRecord: ((id, bill) => {
      const previous = keeping.get(id) ?? Promise.resolve()
      const next = previous.catch(() => {}).then(() => keepBill(id, bill))
      keeping.set(id, next)
      void next
        .finally(() => {
          if (keeping.get(id) === next) keeping.delete(id)
        })
        .catch(() => {})
      return next
    }) satisfies JobStore['keepBillOfRecord'],

    readResult: (async (id, format) => {
      for (;;) {
        if (jobs.get(id)?.job.status !== 'succeeded') return undefined
        const revision = revisionOf(id)
        try {
          // The file's own bytes, not a copy (a kept bill may be many megabytes).
          const bytes = await readFile(resultPath(id, format, revision))
          return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
          // Replaced by a newer bill of record while it was being read: that one is read.
          if (revisionOf(id) === revision) return undefined
        }
      }
    }) satisfies JobStore['readResult'],

    keepGeometry: (async (id, geometry) => {
      if (jobs.get(id)?.job.status !== 'succeeded') return
      await writeFileAtomic(resultPath(id, 'geometry'), geometry)
    }) satisfies JobStore['keepGeometry'],
  }
}
