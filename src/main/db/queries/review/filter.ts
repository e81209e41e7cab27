import {
  type AnnotationFilter,
  SENTENCE_INDEX_MIN,
  dayStart,
  normalizeFilter,
} from '../../../../shared/filter'
import { annotationFlagMask } from '../../../../shared/glucose/flags'
import { ftsQuery, highlightTerms } from '../../../../shared/textSearch'
import type { Db } from '../../connection'
import { pluckAll } from '../../connection'
import { type SqlFragment, sql } from '../../sql'

/** A filter in database terms: internal ids, epoch-second bounds, LIKE and MATCH patterns. */
export interface Constraints {
  /** Provably matches nothing (unknown ids, a search without a word). */
  none: boolean
  workers?: number[]
  stories?: number[]
  dimensions?: number[]
  ratings?: { values: number[]; unrated: boolean }
  /** `submitted_at` in [from, until). */
  from?: number
  until?: number
  flagged?: boolean
  /** Only these flag bits (a flag kind picked); implies `flagged`. */
  flagMask?: number
  /** The selected sentence contains this text. */
  sentence?: SentenceMatch
  /** FTS5 MATCH expression of quoted phrases. */
  fts?: string
  /**
   * Test the text row by row, probing the full-text index for the row's id, instead of reading
   * every hit into a set first: for a walk that expects most rows to match (review.ts).
   */
  ftsProbe?: boolean
  annotationIds?: number[]
  submissionIds?: number[]
  /** Folded search tokens for the page to highlight. */
  highlight: string[]
}

/**
 * "Contains" two ways: a trigram phrase (`sentence_search`, any text of three characters or more)
 * and a LIKE pattern for shorter text. Both are case-insensitive; neither has wildcards.
 */
export interface SentenceMatch {
  like: string
  /** FTS5 string: the text in double quotes (quotes doubled). Null below three characters. */
  trigram: string | null
}

function sentenceMatch(text: string): SentenceMatch {
  return {
    like: likeContains(text),
    trigram: [...text].length >= SENTENCE_INDEX_MIN ? `"${text.replace(/"/g, '""')}"` : null,
  }
}

/** `%text%` for `LIKE … ESCAPE '\'`: `%`, `_` and `\` in the text match themselves. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/**
 * `(SELECT value FROM json_each(?))`: a list bound as one JSON parameter, so the statement text
 * (and the prepared-statement cache) does not grow with every list length.
 */
export function inList(values: readonly (number | string)[]): SqlFragment {
  return sql`(SELECT value FROM json_each(${JSON.stringify(values)}))`
}

function internalIds(db: Db, table: 'workers' | 'stories', externalIds: string[]): number[] {
  return pluckAll<number>(
    db,
    sql`SELECT id FROM ${sql.raw(table)} WHERE external_id IN ${inList(externalIds)} ORDER BY id`,
  )
}

export function resolveFilter(db: Db, filter: AnnotationFilter): Constraints {
  const f = normalizeFilter(filter)
  const c: Constraints = { none: false, highlight: [] }
  if (f.workers) {
    c.workers = internalIds(db, 'workers', f.workers)
    if (c.workers.length === 0) c.none = true
  }
  if (f.stories) {
    c.stories = internalIds(db, 'stories', f.stories)
    if (c.stories.length === 0) c.none = true
  }
  if (f.dimensions) c.dimensions = f.dimensions
  if (f.ratings) {
    c.ratings = {
      values: f.ratings.filter((r): r is number => r !== 'unrated'),
      unrated: f.ratings.includes('unrated'),
    }
  }
  if (f.from) c.from = dayStart(f.from)
  if (f.to) c.until = dayStart(f.to) + 86_400
  if (f.flagged) c.flagged = true
  if (f.flagKinds) {
    c.flagged = true
    c.flagMask = annotationFlagMask(f.flagKinds)
  }
  if (f.sentence) c.sentence = sentenceMatch(f.sentence)
  if (f.text) {
    const match = ftsQuery(f.text)
    if (match === null) c.none = true
    else c.fts = match
    c.highlight = highlightTerms(f.text)
  }
  if (f.annotationIds) c.annotationIds = f.annotationIds
  if (f.submissionIds) c.submissionIds = f.submissionIds
  return c
}

export function hasConstraints(c: Constraints): boolean {
  return (
    c.workers !== undefined ||
    c.stories !== undefined ||
    c.dimensions !== undefined ||
    c.ratings !== undefined ||
    c.from !== undefined ||
    c.until !== undefined ||
    c.flagged !== undefined ||
    c.sentence !== undefined ||
    c.fts !== undefined ||
    c.annotationIds !== undefined ||
    c.submissionIds !== undefined
  )
}

/** The filter fields a plan can test row by row. */
export type CheckName =
  | 'workers'
  | 'stories'
  | 'dimensions'
  | 'ratings'
  | 'dates'
  | 'flagged'
  | 'sentence'
  | 'fts'
  | 'annotationIds'
  | 'submissionIds'

/**
 * One field tested row by row. Columns carry a unary `+` so the planner never turns a test into
 * an index choice behind our back; sentence and text tests read their matches once into a set.
 */
export function check(c: Constraints, name: CheckName): SqlFragment | null {
  switch (name) {
    case 'workers':
      return c.workers ? sql`+a.worker_id IN ${inList(c.workers)}` : null
    case 'stories':
      return c.stories ? sql`+a.story_id IN ${inList(c.stories)}` : null
    case 'dimensions':
      // Short lists stay literal: a test against a bound JSON list costs more per row.
      return c.dimensions ? sql`+a.dimension IN ${sql.list(c.dimensions)}` : null
    case 'ratings': {
      const r = c.ratings
      if (!r) return null
      const parts: SqlFragment[] = []
      if (r.values.length > 0) parts.push(sql`+a.rating IN ${sql.list(r.values)}`)
      if (r.unrated) parts.push(sql`+a.rating IS NULL`)
      return parts.length === 1 ? (parts[0] as SqlFragment) : sql`(${sql.join(parts, ' OR ')})`
    }
    case 'dates': {
      const parts: SqlFragment[] = []
      if (c.from !== undefined) parts.push(sql`+a.submitted_at >= ${c.from}`)
      if (c.until !== undefined) parts.push(sql`+a.submitted_at < ${c.until}`)
      return parts.length > 0 ? sql.join(parts, ' AND ') : null
    }
    case 'flagged':
      if (c.flagMask !== undefined) return sql`(+a.flags & ${c.flagMask}) <> 0`
      return c.flagged ? sql`+a.flags > 0` : null
    case 'sentence': {
      const m = c.sentence
      if (m === undefined) return null
      return m.trigram !== null
        ? sql`(a.story_id << 8) + a.sentence_index IN (SELECT rowid FROM sentence_search WHERE sentence_search MATCH ${m.trigram})`
        : sql`(+a.story_id, +a.sentence_index) IN (SELECT story_id, idx FROM sentences WHERE text LIKE ${m.like} ESCAPE '\\')`
    }
    case 'fts':
      if (c.fts === undefined) return null
      return c.ftsProbe
        ? sql`EXISTS (SELECT 1 FROM annotation_search WHERE annotation_search MATCH ${c.fts} AND rowid = a.id)`
        : sql`+a.id IN (SELECT rowid FROM annotation_search WHERE annotation_search MATCH ${c.fts})`
    case 'annotationIds':
      return c.annotationIds ? sql`+a.id IN ${inList(c.annotationIds)}` : null
    case 'submissionIds':
      return c.submissionIds ? sql`+a.submission_id IN ${inList(c.submissionIds)}` : null
  }
}

export const ALL_CHECKS: readonly CheckName[] = [
  'annotationIds',
  'submissionIds',
  'stories',
  'workers',
  'dimensions',
  'ratings',
  'dates',
  'flagged',
  'fts',
  'sentence',
]
