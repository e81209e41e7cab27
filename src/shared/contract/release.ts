import { z } from 'zod'
import { annotationFilterSchema } from '../filter'
import { call } from './define'

/** One step of the tier map: annotations with this effective rating go into this release tier. */
export interface TierStep {
  rating: number
  tier: number
}

export const TIER_MAP_SETTING = 'release.tierMap'
export const RELEASE_CARD_SETTING = 'release.card'

/** GLUCOSE's tiers: 3, 2 and 1 are released as themselves; any other rating is left out. */
export const DEFAULT_TIER_MAP: readonly TierStep[] = [
  { rating: 3, tier: 3 },
  { rating: 2, tier: 2 },
  { rating: 1, tier: 1 },
]

const tierSchema = z.number().int().min(0).max(99)

export const tierMapSchema = z
  .array(z.strictObject({ rating: z.number().finite().min(-100).max(100), tier: tierSchema }))
  .max(50)
  .refine((steps) => new Set(steps.map((s) => s.rating)).size === steps.length, {
    message: 'a rating is mapped twice',
  })

/** What the dataset card and croissant.json say about the release (a project setting). */
export interface ReleaseCard {
  name: string
  description: string
  /** An SPDX identifier, e.g. `cc-by-4.0`. */
  license: string
  /** The dataset's web page. */
  url: string
  creator: string
}

export const releaseCardSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  description: z.string().trim().min(1).max(5000),
  license: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9.+-]{1,64}$/, 'expected an SPDX licence id such as cc-by-4.0'),
  url: z.url().max(500),
  creator: z.string().trim().min(1).max(200),
})

export const RELEASE_FORMATS = ['csv', 'jsonl', 'parquet'] as const
export type ReleaseFormat = (typeof RELEASE_FORMATS)[number]

/** A held-out part's size: a number of stories (an integer ≥ 1) or a fraction of them (0 < F < 1). */
const splitSize = z.number().positive().max(1_000_000)

const releaseSplitSchema = z.strictObject({
  /** The held-out test part. */
  test: splitSize,
  /** An optional development part, drawn the same way after the test part. */
  dev: splitSize.optional(),
  /** The tier the held-out stories are drawn from (GLUCOSE drew its test set from '3'). */
  tier: tierSchema,
  seed: z.string().max(200).default('0'),
})
export type ReleaseSplit = z.infer<typeof releaseSplitSchema>

export const releaseOptionsSchema = z.strictObject({
  /** An absolute folder path; it must not exist or be empty unless `force`. */
  out: z.string().min(1).max(4096),
  /** Tiers to release; empty or absent = every tier of the map. */
  tiers: z.array(tierSchema).max(50).optional(),
  formats: z.array(z.enum(RELEASE_FORMATS)).min(1).max(3).default(['csv']),
  /** Only these annotations (the review grid's filter); absent = the whole project. */
  filter: annotationFilterSchema.optional(),
  /** Ratings as they stood at this moment (epoch ms). */
  asOf: z.number().int().nonnegative().optional(),
  split: releaseSplitSchema.optional(),
  pseudonymize: z.boolean().default(false),
  neutralizeFormulas: z.boolean().default(false),
  force: z.boolean().default(false),
  /** Not for publication: the card may hold placeholders; the datasheet and manifest say so. */
  draft: z.boolean().default(false),
  /** Card fields for this release in place of the project's (the command line's `--card`). */
  card: releaseCardSchema.partial().optional(),
})
export type ReleaseOptions = z.input<typeof releaseOptionsSchema>
export type ParsedReleaseOptions = z.output<typeof releaseOptionsSchema>

/** What a release of these options would hold, counted before it is written. */
export const releasePreviewSchema = releaseOptionsSchema.omit({ out: true, force: true })
export type ReleasePreviewOptions = z.output<typeof releasePreviewSchema>
export type ReleasePreviewInput = z.input<typeof releasePreviewSchema>

export type ReleasePart = 'all' | 'train' | 'dev' | 'test'

export interface ReleaseFile {
  /** Relative to the release folder, `/`-separated. */
  path: string
  format: ReleaseFormat
  tier: number
  part: ReleasePart
  /** Submissions (rows of CSV and Parquet, lines of JSONL). */
  rows: number
  annotations: number
  bytes: number
  sha256: string
}

/** What `winnow export --json` prints and the export job returns. */
export interface ReleaseResult {
  /** The release folder (absolute). */
  out: string
  files: { path: string; rows: number; sha256: string }[]
  /** The manifest as written to manifest.json. */
  manifest: unknown
  /** datasheet.md as written. */
  datasheet: string
}

/** One tier and part of a release as its files would hold it. */
export interface ReleasePreviewPart {
  tier: number
  part: ReleasePart
  /** Rows of CSV and Parquet (lines of JSON Lines): one per submission with work in the tier. */
  rows: number
  annotations: number
  stories: number
  workers: number
}

export interface ReleasePreview {
  /** Highest tier first, then train, dev, test (or all), as the datasheet lists them. */
  parts: ReleasePreviewPart[]
  /** Annotations of the scope that no file holds, by reason (the datasheet's words). */
  leftOut: { reason: string; annotations: number }[]
  /** The split's tier, the stories it was drawn from and how many each held-out part took. */
  split: { tier: number; candidates: number; test: number; dev: number } | null
  /** Annotations in the scope. */
  total: number
}

export interface ReleaseSettings {
  tierMap: TierStep[]
  card: ReleaseCard
  /** The project's rating scale values, highest first, to map. */
  scale: number[]
}

export const releaseCalls = {
  'release.settings': call(z.object({})).returns<ReleaseSettings>(),
  'release.saveSettings': call(
    z.strictObject({ tierMap: tierMapSchema.optional(), card: releaseCardSchema.optional() }),
  ).returns<ReleaseSettings>(),
  /** Counts per tier and part of what an export of these options would write. */
  'release.preview': call(releasePreviewSchema).returns<ReleasePreview>(),
  /** Starts the export as a job; its result is a ReleaseResult. */
  'release.export': call(releaseOptionsSchema).returns<{ jobId: string }>(),
}
