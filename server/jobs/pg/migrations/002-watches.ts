import type { Migration } from './migration.ts'

/** Watched folders, the drawing versions each has seen, and the people's standing grants. */
export const watchesTables: Migration = {
  version: 2,
  name: 'watched folders and standing grants',
  statements: [
    `CREATE TABLE boq_watches (
      id uuid PRIMARY KEY,
      user_id text NOT NULL,
      project_id text NOT NULL,
      file_folder_id text NOT NULL,
      hook_id text,
      created_at timestamptz NOT NULL,
      record jsonb NOT NULL
    )`,
    'CREATE INDEX boq_watches_by_user ON boq_watches (user_id, created_at DESC)',
    // A person watches a folder once, however many requests at once.
    `CREATE UNIQUE INDEX boq_watches_one_per_folder
      ON boq_watches (user_id, project_id, file_folder_id)`,
    'CREATE INDEX boq_watches_by_hook ON boq_watches (hook_id) WHERE hook_id IS NOT NULL',
    // One row per version a watch saw, whichever way it was seen: the key records it once.
    `CREATE TABLE boq_watched_versions (
      watch_id uuid NOT NULL REFERENCES boq_watches (id) ON DELETE CASCADE,
      file_storage_id text NOT NULL,
      state text NOT NULL
        CHECK (state IN ('baseline', 'pending', 'taken', 'queued', 'skipped')),
      seen_at timestamptz NOT NULL,
      -- Its place among the versions noted with it: taken in the order they were given.
      ordinal integer NOT NULL,
      taken_at timestamptz,
      job_id uuid,
      -- Why it is never to be extracted (skipped).
      skipped_reason text,
      version jsonb NOT NULL,
      PRIMARY KEY (watch_id, file_storage_id)
    )`,
    // The versions still to extract, in the order they are taken.
    `CREATE INDEX boq_watched_versions_waiting
      ON boq_watched_versions (watch_id, seen_at, ordinal)
      WHERE state IN ('pending', 'taken')`,
    `CREATE TABLE boq_standing_grants (
      user_id text PRIMARY KEY,
      sealed text NOT NULL
    )`,
  ],
}
