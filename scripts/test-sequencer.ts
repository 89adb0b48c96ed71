/**
 * The order Vitest starts test files in, across all projects at once: the longest first, so the
 * files still running when the queue runs dry are short ones and the run ends soon after the last
 * start. A file's length is what this machine's last run took (Vitest keeps it in its cache);
 * in a fresh clone, with no cache yet, the rough figures below, else its project's usual length.
 * The order changes how long the run takes, never what it tests or whether it passes.
 */
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/** Seconds a file took on a quiet 2-core machine: the files that take longest, roughly. */
const MEASURED_SECONDS: Record<string, number> = {
  'server/jobs/pg/cluster.http.test.ts': 26,
  'e2e/drawing-view.test.ts': 23,
  'e2e/watched-folder.test.ts': 18,
  'server/watches/watches-cluster.http.test.ts': 17,
  'server/boq/run/engine.test.ts': 16,
  'e2e/big-folder.test.ts': 14,
  'server/jobs/jobs.restart.test.ts': 13,
  'server/watches/watches.http.test.ts': 13,
  'src/features/jobs/components/jobs-panel.test.tsx': 12,
  'e2e/aps.test.ts': 12,
  'server/watches/damaged-state.http.test.ts': 12,
  'e2e/compare.test.ts': 11,
  'server/main.test.ts': 11,
  'e2e/upload.test.ts': 11,
  'src/app/pages/file-selection-page.test.tsx': 11,
  'server/jobs/pg/outage.http.test.ts': 11,
  'server/boq/run/bin.test.ts': 11,
  'e2e/classification-page.test.ts': 11,
  'e2e/readme-screenshot.test.ts': 10,
  'e2e/app.test.ts': 9,
  'server/boq/read/dwg-reader.test.ts': 9,
  'server/boq/run/cli.test.ts': 9,
  'server/boq/read/dwg-entities.test.ts': 9,
  'server/jobs/rules-import.http.test.ts': 7,
  'src/features/jobs/components/extract-panel.test.tsx': 6,
  'server/jobs/heavy-requests.test.ts': 6,
  'server/jobs/price-routes.test.ts': 6,
}

/** A file of a project not listed above: a browser test starts a server and a Chromium. */
const USUAL_SECONDS: Record<string, number> = { e2e: 6 }
const DEFAULT_SECONDS = 1

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = new Map(files.map((spec) => [spec, this.expectedSeconds(spec)]))
    // Ties (most short files) keep the path order, so that runs start in the same order.
    return [...files].sort(
      (a, b) =>
        (seconds.get(b) ?? 0) - (seconds.get(a) ?? 0) || a.moduleId.localeCompare(b.moduleId),
    )
  }

  private expectedSeconds(spec: TestSpecification): number {
    const cached = this.ctx.cache.getTestSpecificationResult(spec)
    // A file that failed last time runs early: its outcome is the news.
    if (cached?.failed) return Number.POSITIVE_INFINITY
    if (cached?.duration) return cached.duration / 1000
    const path = relative(this.ctx.config.root, spec.moduleId)
    return MEASURED_SECONDS[path] ?? USUAL_SECONDS[spec.project.name] ?? DEFAULT_SECONDS
  }
}
