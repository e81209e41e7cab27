/** The rating scale's plain values, free of zod (worker threads read them). */

/** One step of the project's rating scale, as the page shows it. */
export interface RatingLevel {
  value: number
  label: string
  /** CSS colour, `#rrggbb`. */
  color: string
}

export const RATING_SCALE_SETTING = 'ratings.scale'

/** The scale GLUCOSE used during collection (FORMATS.md §2). */
export const DEFAULT_RATING_SCALE: readonly RatingLevel[] = [
  { value: 3, label: 'Top', color: '#1a9850' },
  { value: 2, label: 'Proficient', color: '#66bd63' },
  { value: 1.5, label: 'Fair+', color: '#a6d96a' },
  { value: 1, label: 'Fair', color: '#fee08b' },
  { value: 0, label: 'Disqualified', color: '#f46d43' },
  { value: -1, label: 'New worker', color: '#bababa' },
  { value: -2, label: 'Rushing', color: '#d73027' },
]
