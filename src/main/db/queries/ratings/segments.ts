/**
 * A worker's rating timeline as the cache writers take it: pieces of submission time, each with
 * the worker-based rating that holds in it. The timeline rules compute them; the queries here
 * write them into `temp.rating_segments` and rewrite the annotations they cover.
 */

/** `value` holds for submissions in [start, until) (epoch seconds); null = unrated. */
export interface Segment {
  start: number
  until: number
  value: number | null
}

/** A stretch of submission time whose worker-based rating moves from `from` to `value`. */
export interface Change extends Segment {
  from: number | null
}
