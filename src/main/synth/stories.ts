import type { Random } from './random'
import {
  EVENTS,
  type EventTemplate,
  FOODS,
  NAMES,
  PLACES,
  RELATIONS,
  type Slot,
  THINGS,
} from './vocabulary'

/** A synthetic ROCStories-like story: two people, a thing, a food, a place and five events. */

export interface Person {
  name: string
  pronoun: 'he' | 'she'
  /** The variable general rules use for this person. */
  variable: 'Someone_A' | 'Someone_B'
  relation: string | null
}

export interface StoryEvent {
  template: EventTemplate
  subject: 'main' | 'other'
}

export interface Story {
  id: string
  main: Person
  other: Person
  thing: string
  food: string
  place: string
  events: StoryEvent[]
  sentences: string[]
}

const OPENERS = EVENTS.filter((e) =>
  ['went', 'walked', 'drove', 'bought', 'found'].includes(e.past),
)

export function generateStory(r: Random): Story {
  const [mainName, mainPronoun] = r.pick(NAMES)
  let otherPick = r.pick(NAMES)
  while (otherPick[0] === mainName) otherPick = r.pick(NAMES)
  const main: Person = {
    name: mainName,
    pronoun: mainPronoun,
    variable: 'Someone_A',
    relation: null,
  }
  const other: Person = {
    name: otherPick[0],
    pronoun: otherPick[1],
    variable: 'Someone_B',
    relation: r.pick(RELATIONS[otherPick[1]]),
  }
  const events: StoryEvent[] = [{ template: r.pick(OPENERS), subject: 'main' }]
  while (events.length < 5) {
    const template = r.pick(EVENTS)
    if (events.some((e) => e.template === template)) continue
    events.push({ template, subject: r.chance(0.15) ? 'other' : 'main' })
  }
  const story: Story = {
    id: uuid(r),
    main,
    other,
    thing: r.pick(THINGS),
    food: r.pick(FOODS),
    place: r.pick(PLACES),
    events,
    sentences: [],
  }
  story.sentences = renderSentences(story, r)
  return story
}

/** Past-tense sentences with pronouns and articles that follow first mentions. */
function renderSentences(story: Story, r: Random): string[] {
  const mentioned = new Set<string>()
  return story.events.map((e) => {
    const subject = e.subject === 'main' ? story.main : story.other
    const partner = e.subject === 'main' ? story.other : story.main
    const words: string[] = []
    if (mentioned.has(subject.name) && r.chance(0.6)) words.push(subject.pronoun)
    else words.push(introduce(subject, story.main, mentioned))
    words.push(e.template.past)
    for (const part of e.template.parts) {
      if (part[0] !== 'slot') words.push(part[1])
      else if (part[1] === 'person') words.push(introduce(partner, story.main, mentioned))
      else words.push(mention(story, part[1], mentioned, subject))
    }
    const text = words.join(' ')
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`
  })
}

function introduce(p: Person, main: Person, mentioned: Set<string>): string {
  if (mentioned.has(p.name) || p.relation === null) {
    mentioned.add(p.name)
    return p.name
  }
  mentioned.add(p.name)
  return `${possessive(main)} ${p.relation} ${p.name}`
}

function mention(
  story: Story,
  slot: Exclude<Slot, 'person'>,
  mentioned: Set<string>,
  owner: Person,
): string {
  const noun = slot === 'thing' ? story.thing : slot === 'food' ? story.food : story.place
  if (slot === 'place') return `the ${noun}`
  if (mentioned.has(noun)) return `${possessive(owner)} ${noun}`
  mentioned.add(noun)
  return slot === 'food' ? `some ${noun}` : `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`
}

function possessive(p: Person): string {
  return p.pronoun === 'he' ? 'his' : 'her'
}

/** A version-4 UUID drawn from the generator (deterministic, unlike crypto.randomUUID). */
function uuid(r: Random): string {
  const hex = Array.from({ length: 32 }, () => r.int(16).toString(16))
  hex[12] = '4'
  hex[16] = (8 + r.int(4)).toString(16)
  const h = hex.join('')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}
