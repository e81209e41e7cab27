/** Word lists and event templates for synthetic GLUCOSE stories. */

import { EMOTIONS_AND_DRIVES } from '../../shared/glucose/dimensions'

export const NAMES: readonly (readonly [string, 'he' | 'she'])[] = [
  ['Tom', 'he'],
  ['Sam', 'he'],
  ['Mark', 'he'],
  ['Aaron', 'he'],
  ['Martin', 'he'],
  ['Ben', 'he'],
  ['Joe', 'he'],
  ['Dan', 'he'],
  ['Fred', 'he'],
  ['Gary', 'he'],
  ['Jack', 'he'],
  ['Leo', 'he'],
  ['Nate', 'he'],
  ['Pete', 'he'],
  ['Will', 'he'],
  ['Tim', 'he'],
  ['Carl', 'he'],
  ['Hank', 'he'],
  ['Ivan', 'he'],
  ['Kyle', 'he'],
  ['Omar', 'he'],
  ['Ray', 'he'],
  ['Steve', 'he'],
  ['Victor', 'he'],
  ['Meg', 'she'],
  ['Tabatha', 'she'],
  ['Kate', 'she'],
  ['Gina', 'she'],
  ['Lucy', 'she'],
  ['Amy', 'she'],
  ['Ella', 'she'],
  ['Hana', 'she'],
  ['Ivy', 'she'],
  ['Kim', 'she'],
  ['Mia', 'she'],
  ['Olga', 'she'],
  ['Rosa', 'she'],
  ['Sara', 'she'],
  ['Tina', 'she'],
  ['Zoe', 'she'],
  ['Anna', 'she'],
  ['Beth', 'she'],
  ['Carla', 'she'],
  ['Diane', 'she'],
  ['Erin', 'she'],
  ['Fay', 'she'],
  ['Jill', 'she'],
  ['Nora', 'she'],
]

/** Who the second person is to the main character, by the second person's pronoun. */
export const RELATIONS = {
  he: ['friend', 'father', 'brother', 'neighbor', 'boss', 'coach', 'son', 'uncle'],
  she: ['friend', 'mother', 'sister', 'neighbor', 'boss', 'coach', 'daughter', 'aunt'],
} as const

export const THINGS = [
  'ball',
  'book',
  'phone',
  'bike',
  'guitar',
  'camera',
  'wallet',
  'umbrella',
  'sweater',
  'ticket',
  'kite',
  'puzzle',
  'lamp',
  'backpack',
  'watch',
  'necklace',
  'laptop',
  'skateboard',
  'ring',
  'key',
  'cat',
  'puppy',
  'car',
  'jacket',
  'map',
  'letter',
  'painting',
  'tent',
]

export const FOODS = ['cake', 'pizza', 'soup', 'cookies', 'pasta', 'sandwich', 'pie', 'salad']

export const PLACES = [
  'park',
  'store',
  'beach',
  'library',
  'school',
  'mall',
  'kitchen',
  'office',
  'lake',
  'gym',
  'restaurant',
  'garden',
  'museum',
  'bakery',
  'zoo',
  'hospital',
  'airport',
  'cafe',
  'farm',
  'theater',
  'bridge',
  'yard',
  'station',
  'pool',
]

/** Prepositions for location statements (dims 3, 8): the UI list and a few seen off-list. */
export const LOCATION_PREPOSITIONS = [
  'at',
  'at',
  'at',
  'in',
  'in',
  'in',
  'near',
  'next to',
  'inside of',
  'outside of',
  'in front of',
  'far from',
  'on top of',
  'above',
  'behind',
  'between',
]

/** Drives go with want(s), emotions with feel(s) (dims 2, 7): the first 14 of the UI's list. */
export const DRIVES: readonly string[] = EMOTIONS_AND_DRIVES.slice(
  0,
  EMOTIONS_AND_DRIVES.indexOf('happy'),
)
export const EMOTIONS = [
  'happy',
  'stressed',
  'angered',
  'disgusted',
  'sad',
  'surprised',
  'fearful',
  'trusting',
  'love',
  'amazed',
  'disappointment',
  'regret',
  'optimistic',
  'excited',
  'relieved',
  'proud',
  'lonely',
  'nervous',
  'disappoinment',
  'grateful',
]

/** Other attributes (dims 5, 10): verb and object. */
export const ATTRIBUTES: readonly (readonly [string, string])[] = [
  ['is', 'hungry'],
  ['is', 'tired'],
  ['is', 'excited'],
  ['is', 'bored'],
  ['is', 'brave'],
  ['is', 'busy'],
  ['is', 'sick'],
  ['is', 'late'],
  ['is', 'careful'],
  ['is', 'strong'],
  ['has', 'money'],
  ['has', 'free time'],
  ['has', 'a plan'],
  ['has', 'a car'],
  ['needs', 'help'],
  ['needs', 'a ride'],
  ['needs', 'rest'],
  ['wants', 'to relax'],
]

export type Slot = 'thing' | 'food' | 'place' | 'person'

/**
 * An event: past and present verb, then parts. A part is a literal preposition, a literal phrase,
 * or a slot filled from the story (a thing, food, place or the second person).
 */
export interface EventTemplate {
  past: string
  present: string
  parts: readonly (readonly ['prep', string] | readonly ['lit', string] | readonly ['slot', Slot])[]
}

export const EVENTS: readonly EventTemplate[] = [
  {
    past: 'went',
    present: 'goes',
    parts: [
      ['prep', 'to'],
      ['slot', 'place'],
    ],
  },
  {
    past: 'drove',
    present: 'drives',
    parts: [
      ['prep', 'to'],
      ['slot', 'place'],
    ],
  },
  {
    past: 'walked',
    present: 'walks',
    parts: [
      ['prep', 'to'],
      ['slot', 'place'],
    ],
  },
  {
    past: 'bought',
    present: 'buys',
    parts: [
      ['slot', 'thing'],
      ['prep', 'at'],
      ['slot', 'place'],
    ],
  },
  {
    past: 'found',
    present: 'finds',
    parts: [
      ['slot', 'thing'],
      ['prep', 'in'],
      ['slot', 'place'],
    ],
  },
  {
    past: 'lost',
    present: 'loses',
    parts: [
      ['slot', 'thing'],
      ['prep', 'at'],
      ['slot', 'place'],
    ],
  },
  { past: 'dropped', present: 'drops', parts: [['slot', 'thing']] },
  { past: 'broke', present: 'breaks', parts: [['slot', 'thing']] },
  { past: 'fixed', present: 'fixes', parts: [['slot', 'thing']] },
  {
    past: 'borrowed',
    present: 'borrows',
    parts: [
      ['slot', 'thing'],
      ['prep', 'from'],
      ['slot', 'person'],
    ],
  },
  {
    past: 'gave',
    present: 'gives',
    parts: [
      ['slot', 'thing'],
      ['prep', 'to'],
      ['slot', 'person'],
    ],
  },
  {
    past: 'showed',
    present: 'shows',
    parts: [
      ['slot', 'thing'],
      ['prep', 'to'],
      ['slot', 'person'],
    ],
  },
  { past: 'called', present: 'calls', parts: [['slot', 'person']] },
  { past: 'visited', present: 'visits', parts: [['slot', 'person']] },
  {
    past: 'met',
    present: 'meets',
    parts: [
      ['slot', 'person'],
      ['prep', 'at'],
      ['slot', 'place'],
    ],
  },
  {
    past: 'asked',
    present: 'asks',
    parts: [
      ['slot', 'person'],
      ['prep', 'for'],
      ['lit', 'help'],
    ],
  },
  {
    past: 'played',
    present: 'plays',
    parts: [
      ['prep', 'with'],
      ['slot', 'thing'],
    ],
  },
  { past: 'cleaned', present: 'cleans', parts: [['slot', 'place']] },
  { past: 'painted', present: 'paints', parts: [['slot', 'thing']] },
  { past: 'ate', present: 'eats', parts: [['slot', 'food']] },
  {
    past: 'cooked',
    present: 'cooks',
    parts: [
      ['slot', 'food'],
      ['prep', 'for'],
      ['slot', 'person'],
    ],
  },
  {
    past: 'waited',
    present: 'waits',
    parts: [
      ['prep', 'for'],
      ['slot', 'person'],
    ],
  },
  {
    past: 'practiced',
    present: 'practices',
    parts: [
      ['prep', 'for'],
      ['lit', 'hours'],
    ],
  },
  {
    past: 'fell asleep',
    present: 'falls asleep',
    parts: [
      ['prep', 'on'],
      ['lit', 'the couch'],
    ],
  },
  { past: 'won', present: 'wins', parts: [['lit', 'the game']] },
  {
    past: 'laughed',
    present: 'laughs',
    parts: [
      ['prep', 'at'],
      ['slot', 'person'],
    ],
  },
]

/** Earlier or later events when the story has none on that side (dims 1, 6). */
export const GENERIC_BEFORE: readonly EventTemplate[] = [
  { past: 'woke up', present: 'wakes up', parts: [['lit', 'early']] },
  { past: 'had', present: 'has', parts: [['lit', 'a free day']] },
  { past: 'saved', present: 'saves', parts: [['lit', 'money']] },
  {
    past: 'heard',
    present: 'hears',
    parts: [
      ['prep', 'about'],
      ['slot', 'place'],
    ],
  },
]
export const GENERIC_AFTER: readonly EventTemplate[] = [
  { past: 'went', present: 'goes', parts: [['lit', 'home']] },
  {
    past: 'told',
    present: 'tells',
    parts: [
      ['slot', 'person'],
      ['prep', 'about'],
      ['lit', 'it'],
    ],
  },
  { past: 'smiled', present: 'smiles', parts: [] },
  { past: 'rested', present: 'rests', parts: [['lit', 'for a while']] },
]
