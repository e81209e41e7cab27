/** HALIE's five tasks and the shape of their standardised tables (FORMATS.md §7.1). */

export const HALIE_TASKS = [
  'dialogue',
  'question',
  'crossword',
  'summarization',
  'metaphor',
] as const
export type HalieTask = (typeof HALIE_TASKS)[number]

export const HALIE_TABLES = ['event_blocks', 'survey_responses', 'accuracies'] as const
export type HalieTable = (typeof HALIE_TABLES)[number]

export function isHalieTask(value: string): value is HalieTask {
  return (HALIE_TASKS as readonly string[]).includes(value)
}

/** Every table joins on these (the headers are trusted over the dataset's README). */
export const KEY_COLUMNS = ['session_id', 'worker_id', 'model', 'prompt'] as const

/** Cells that hold a Python-`repr` list. */
export const LIST_COLUMNS: ReadonlySet<string> = new Set([
  'user_queries',
  'user_query_types',
  'lm_responses',
  'query_type',
])

const SUMMARY_RATINGS = ['original', 'edited'].flatMap((side) =>
  ['consistency', 'coherency', 'relevance'].map((r) => `${side}_${r}`),
)

/** Cells that are `True`/`False` (summarization's own ratings of each summary). */
export const BOOLEAN_COLUMNS: ReadonlySet<string> = new Set(SUMMARY_RATINGS)

/** Cells that must be numbers where filled. */
export const NUMBER_COLUMNS: ReadonlySet<string> = new Set([
  'elapsed_time',
  'num_queries',
  'num_events',
  'turn_id',
  'lm_used',
  'user_correct',
  'letter_accuracy',
  'clue_accuracy',
  'acceptance',
  'norm_order_id',
  // The third party's ratings of a summary are numbers, not True/False.
  ...SUMMARY_RATINGS.map((r) => `${r}_third_party`),
])

/** The survey's scores per task (free text and ids aside), in the order of the file. */
export const SURVEY_SCORES: Record<HalieTask, readonly string[]> = {
  dialogue: [
    'quality',
    'interestingness',
    'boringness',
    'preference',
    'fluency',
    'sensibility',
    'specificity',
    'humanness',
  ],
  question: ['fluency', 'helpfulness', 'ease'],
  crossword: ['fluency', 'helpfulness', 'ease', 'joy'],
  summarization: ['improvement', 'edit', 'helpfulness'],
  metaphor: ['fluency', 'helpfulness', 'ease', 'enjoyment', 'satisfaction', 'ownership', 'reuse'],
}

/** Every score name any task's survey has, for the grid's filters. */
export const ALL_SURVEY_SCORES: readonly string[] = [
  ...new Set(Object.values(SURVEY_SCORES).flat()),
]

/** The tasks whose raw logs hold text deltas (crossword and dialogue logs come as CSVs only). */
export const LOGGED_TASKS: readonly HalieTask[] = ['question', 'metaphor', 'summarization']

/** Session metadata's `domain` → task. */
export const METADATA_DOMAINS: Record<string, HalieTask> = {
  interactiveqa: 'question',
  metaphor: 'metaphor',
  summarization: 'summarization',
}

/** What the import adds per task (also `winnow halie import --json`). */
export interface HalieTaskCounts {
  /** Distinct session ids over the task's tables. */
  sessions: number
  eventBlocks: number
  surveyResponses: number
  /** Raw logs imported. */
  logs: number
}

export interface HalieImportResult {
  tasks: Partial<Record<HalieTask, HalieTaskCounts>>
}

export function describeHalieImport(result: HalieImportResult): string {
  const parts = Object.entries(result.tasks).map(
    ([task, c]) =>
      `${task}: ${c.sessions} sessions, ${c.eventBlocks} event blocks, ${c.surveyResponses} survey responses, ${c.logs} logs`,
  )
  return parts.length === 0 ? 'nothing' : parts.join('; ')
}
