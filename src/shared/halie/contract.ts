import { z } from 'zod'
import type { ModelFigures, SessionChoices, SessionDetail, SessionPage } from './sessions'
import { SESSION_SORTS } from './sessions'
import { HALIE_TASKS } from './tasks'
import { call } from '../contract/define'
import { fileRefSchema } from '../contract/imports'
import { type ReleaseResult, releaseOptionsSchema } from '../contract/release'

const range = z
  .object({ min: z.number().finite().optional(), max: z.number().finite().optional() })
  .optional()

export const sessionFilterSchema = z.object({
  tasks: z.array(z.enum(HALIE_TASKS)).max(5).optional(),
  workers: z.array(z.string().min(1).max(200)).max(200).optional(),
  models: z.array(z.string().min(1).max(200)).max(50).optional(),
  prompt: z.string().max(500).optional(),
  scores: z
    .array(
      z.object({
        name: z.string().min(1).max(100),
        min: z.number().finite().optional(),
        max: z.number().finite().optional(),
      }),
    )
    .max(20)
    .optional(),
  elapsed: range,
  queries: range,
  accuracy: range,
  withLog: z.boolean().optional(),
})

export const halieCalls = {
  /**
   * Imports a HALIE data folder as one job on the import thread: each file with its path inside
   * the folder (`question/event_blocks.csv`, `question/logs/<session>.jsonl`), all or nothing.
   */
  'halie.import': call(
    z.object({
      files: z
        .array(z.object({ ref: fileRefSchema, relPath: z.string().min(1).max(4096) }))
        .min(1)
        .max(100_000),
    }),
  ).returns<{ jobId: string }>(),
  'halie.choices': call(z.object({})).returns<SessionChoices>(),
  /** A page of the sessions the filter keeps, with their exact count. */
  'halie.sessions': call(
    z.object({
      filter: sessionFilterSchema,
      sort: z.enum(SESSION_SORTS).optional(),
      descending: z.boolean().optional(),
      offset: z.number().int().min(0),
      limit: z.number().int().min(1).max(1000),
    }),
  ).returns<SessionPage>(),
  'halie.session': call(z.object({ id: z.number().int().positive() })).returns<SessionDetail>(),
  /** A session's raw log as written, one JSON line per event in log order (the replay reads it). */
  /** Rates sessions (their own rating; null clears it), as one change set in History. */
  'halie.rateSessions': call(
    z.object({
      ids: z.array(z.number().int().positive()).min(1).max(100_000),
      rating: z.number().finite().nullable(),
      note: z.string().max(2000).optional(),
    }),
  ).returns<{ changeSet: number; rated: number }>(),
  /** Rates event blocks (rows of a task's event_blocks.csv), as one change set. */
  'halie.rateBlocks': call(
    z.object({
      ids: z.array(z.number().int().positive()).min(1).max(100_000),
      rating: z.number().finite().nullable(),
      note: z.string().max(2000).optional(),
    }),
  ).returns<{ changeSet: number; rated: number }>(),
  /**
   * Writes a release of one task: its standardised tables per tier, rows as imported, with the
   * datasheet, card, Croissant and manifest (the release options of every collection).
   */
  'halie.release': call(
    releaseOptionsSchema.extend({ task: z.enum(HALIE_TASKS) }),
  ).returns<ReleaseResult>(),
  'halie.log': call(z.object({ id: z.number().int().positive() })).returns<string[]>(),
  /** Per task and model: sessions, blocks, queries, minutes, accuracy, survey means. */
  'halie.figures': call(z.object({ task: z.enum(HALIE_TASKS).optional() })).returns<
    ModelFigures[]
  >(),
}
