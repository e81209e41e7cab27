/** The ten GLUCOSE dimensions as reviewers see them, and the facts the parsers need. */

/** Connectors as they appear between `>…>` in cells. */
export const CONNECTORS = [
  'Causes/Enables',
  'Motivates',
  'Enables',
  'Causes',
  'Results in',
] as const
export type Connector = (typeof CONNECTORS)[number]

export type DimensionNumber = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10

export interface DimensionInfo {
  number: DimensionNumber
  /** Reviewer-facing short name. */
  name: string
  /** The question workers answered, in gist. */
  question: string
  /** The connector released cells use. */
  connector: Connector
  /** Which half of a statement is the selected sentence X (right for 1–5, left for 6–10). */
  selectedSide: 'left' | 'right'
  /** Before X (1–5) or after X (6–10). */
  phase: 'before' | 'after'
  /** What the other half must say. */
  otherHalf: string
}

export const DIMENSIONS: readonly DimensionInfo[] = [
  {
    number: 1,
    name: 'Cause/enable',
    question: 'Did an earlier event cause or enable X?',
    connector: 'Causes/Enables',
    selectedSide: 'right',
    phase: 'before',
    otherHalf: 'any earlier event',
  },
  {
    number: 2,
    name: 'Motivation',
    question: 'Did an emotion or basic drive motivate X?',
    connector: 'Motivates',
    selectedSide: 'right',
    phase: 'before',
    otherHalf: 'someone feels / wants / likes an emotion or drive',
  },
  {
    number: 3,
    name: 'Location enables',
    question: 'Did where a participant was make X possible?',
    connector: 'Enables',
    selectedSide: 'right',
    phase: 'before',
    otherHalf: 'someone or something is at / in / near … a place',
  },
  {
    number: 4,
    name: 'Possession enables',
    question: 'Did something a participant had make X possible?',
    connector: 'Enables',
    selectedSide: 'right',
    phase: 'before',
    otherHalf: 'someone possesses something',
  },
  {
    number: 5,
    name: 'Other attribute enables',
    question: 'Did any other state of a participant make X possible?',
    connector: 'Enables',
    selectedSide: 'right',
    phase: 'before',
    otherHalf: 'someone is / has / wants / needs …',
  },
  {
    number: 6,
    name: 'Causes/enables (after)',
    question: 'Did X cause or enable a later event?',
    connector: 'Causes/Enables',
    selectedSide: 'left',
    phase: 'after',
    otherHalf: 'any later event',
  },
  {
    number: 7,
    name: 'Emotion',
    question: 'Did X cause an emotion?',
    connector: 'Causes',
    selectedSide: 'left',
    phase: 'after',
    otherHalf: 'someone feels an emotion',
  },
  {
    number: 8,
    name: 'Location change',
    question: 'Did X put someone or something somewhere?',
    connector: 'Results in',
    selectedSide: 'left',
    phase: 'after',
    otherHalf: 'someone or something is at / in / near … a place',
  },
  {
    number: 9,
    name: 'Possession change',
    question: 'Did X change who has what?',
    connector: 'Results in',
    selectedSide: 'left',
    phase: 'after',
    otherHalf: 'someone possesses something',
  },
  {
    number: 10,
    name: 'Attribute change',
    question: 'Did X put a participant into another state?',
    connector: 'Results in',
    selectedSide: 'left',
    phase: 'after',
    otherHalf: 'someone is / has / wants / needs …',
  },
]

export function isDimensionNumber(n: number): n is DimensionNumber {
  return Number.isInteger(n) && n >= 1 && n <= 10
}

export function dimensionInfo(n: number): DimensionInfo {
  const info = DIMENSIONS[n - 1]
  if (!info || !isDimensionNumber(n)) throw new RangeError(`no GLUCOSE dimension ${n}`)
  return info
}

export function isConnector(s: string): s is Connector {
  return (CONNECTORS as readonly string[]).includes(s)
}

/** UI suggestion lists (free text was accepted too). */
export const EMOTIONS_AND_DRIVES = [
  'curiosity',
  'independence',
  'competition',
  'honor',
  'approval',
  'power',
  'status',
  'romance',
  'success',
  'friendship',
  'belonging',
  'health',
  'safety',
  'livelihood',
  'happy',
  'stressed',
  'angered',
  'disgusted',
  'sad',
  'surprised',
  'fearful',
  'trusting',
  'love',
  'obedient',
  'amazed',
  'disappointment',
  'regret',
  'worthless',
  'aggression',
  'optimistic',
] as const
