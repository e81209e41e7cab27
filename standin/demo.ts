/**
 * Demo data: GLUCOSE-like HITs whose answers carry the release column names as form fields
 * (`story_id`, `story`, `selected_sentence_index`, `selected_sentence`, `n_specificNL`, …), in both
 * answer shapes and every status, so a new user can try the whole flow on the stand-in.
 */
import { crowdFormAnswerXml, htmlFormAnswerXml } from './answer-xml'
import { seededRandom } from './faults'
import { type AssignmentRecord, type AssignmentStatus, DAY_MS, type HITRecord } from './state'
import type { StandinState } from './state'

export interface DemoOptions {
  hits: number
  assignmentsPerHit: number
  seed?: number
  /** Every n-th assignment gets a truncated Answer (0 = none), to show flagged answers. */
  brokenEvery?: number
}

export interface DemoSeed {
  hits: HITRecord[]
  assignments: AssignmentRecord[]
  workers: string[]
  /** Workers with only unreviewed work: NotifyWorkers reports them as failures. */
  newWorkers: string[]
  qualificationTypeIds: string[]
}

/** Five sentences each: `text|subject|verb|object` with `{A}` for the main character. */
const STORIES: readonly (readonly string[])[] = [
  [
    '{A} wanted a new bike.|{A}|wants|a new bike',
    "{A}'s old bike had a flat tire.|{A}'s old bike|has|a flat tire",
    '{A} saved money all summer.|{A}|saves|money',
    '{A} went to the shop with Dad.|{A}|goes|to the shop',
    '{A} rode home on a shiny red bike.|{A}|rides|home on a red bike',
  ],
  [
    '{A} baked a cake for a friend.|{A}|bakes|a cake',
    'The oven was too hot.|the oven|is|too hot',
    'The cake burned on top.|the cake|burns|on top',
    '{A} scraped off the "crust" carefully.|{A}|scrapes off|the crust',
    "{A}'s friend loved it anyway.|{A}'s friend|loves|the cake",
  ],
  [
    '{A} moved to a town with a little café.|{A}|moves|to a new town',
    '{A} did not know anyone there.|{A}|knows|nobody',
    '{A} joined a running club.|{A}|joins|a running club',
    '{A} met a neighbour at practice.|{A}|meets|a neighbour',
    'They became good friends.|they|become|good friends',
  ],
  [
    '{A} heard a noise in the attic.|{A}|hears|a noise',
    '{A} climbed the ladder < slowly >.|{A}|climbs|the ladder',
    'A squirrel ran past & out the window.|a squirrel|runs|out the window',
    '{A} laughed with relief.|{A}|laughs|with relief',
    '{A} fixed the hole in the roof.|{A}|fixes|the hole',
  ],
]
const NAMES = ['Tabatha', 'Sam', 'Maria', 'Kenji', 'Ola', 'Dev', 'Rosa', 'Li']
const EMOTIONS = ['happy', 'curiosity', 'stressed', 'friendship', 'regret', 'safety']
const PLACES = ['in the kitchen', 'at the shop', 'next to the window', 'outside of the house']
const THINGS = ['some money', 'a ladder', 'a map', 'a phone']
const STATES = ['tired', 'hungry', 'excited', 'patient']
const CONNECTORS = [
  '',
  '>Causes/Enables>',
  '>Motivates>',
  '>Enables>',
  '>Enables>',
  '>Enables>',
].concat(['>Causes/Enables>', '>Causes>', '>Results in>', '>Results in>', '>Results in>'])

type Half = { nl: string; structured: string }

function half(subject: string, verb: string, object: string, tag = 'object1'): Half {
  return {
    nl: `${subject} ${verb} ${object}`,
    structured: `{${subject}}_[subject] {${verb}}_[verb] {${object}}_[${tag}]`,
  }
}

/** The dimension's non-X half, honouring its slot constraint (FORMATS §1.2). */
function otherHalf(dim: number, who: string, pick: <T>(list: readonly T[]) => T): Half {
  const base = dim > 5 ? dim - 5 : dim
  if (base === 2) return half(who, dim > 5 ? 'feel(s)' : 'want(s)', pick(EMOTIONS), 'object')
  if (base === 3) {
    const place = pick(PLACES)
    const cut = place.lastIndexOf(' the ')
    const [prep, obj] = [place.slice(0, cut), place.slice(cut + 1)]
    return {
      nl: `${who} is ${place}`,
      structured: `{${who}}_[subject] {is}_[verb] {${prep}}_[preposition] {${obj}}_[object]`,
    }
  }
  if (base === 4) return half(who, 'possess(es)', pick(THINGS), 'object')
  if (base === 5) return half(who, 'is', pick(STATES), 'object')
  return half(who, dim > 5 ? 'feels' : 'finds', dim > 5 ? 'glad afterwards' : 'a reason')
}

type Random = () => number

/** The four release cells of one filled dimension, with the selected sentence X on its side. */
function dimensionCells(dim: number, x: readonly string[], name: string, random: Random) {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T
  const [subject = name, verb = 'does', object = 'something'] = x.slice(1)
  const conn = CONNECTORS[dim] as string
  // Dimensions 1–5 explain X (X on the right), 6–10 follow from it (X on the left).
  const join = (xHalf: Half, other: Half): Half => {
    const [l, r] = dim <= 5 ? [other, xHalf] : [xHalf, other]
    return { nl: `${l.nl} ${conn} ${r.nl}`, structured: `${l.structured} ${conn} ${r.structured}` }
  }
  const specific = join(half(subject, verb, object), otherHalf(dim, name, pick))
  const general = join(half('Someone_A', verb, object), otherHalf(dim, 'Someone_A', pick))
  return {
    [`${dim}_specificNL`]: specific.nl,
    [`${dim}_specificStructured`]: specific.structured,
    [`${dim}_generalNL`]: general.nl,
    [`${dim}_generalStructured`]: general.structured,
  }
}

/** One worker's form post for a story and selected sentence: 2–5 filled dimensions. */
function answerFields(
  story: { id: string; rows: string[][]; index: number; name: string },
  random: Random,
): Record<string, string> {
  const sentences = story.rows.map((r) => r[0] as string)
  const fields: Record<string, string> = {
    story_id: story.id,
    story: sentences.join(' '),
    selected_sentence_index: String(story.index),
    selected_sentence: sentences[story.index] as string,
  }
  const wanted = 2 + Math.floor(random() * 4)
  const filled = new Set<number>()
  while (filled.size < wanted) filled.add(1 + Math.floor(random() * 10))
  for (let dim = 1; dim <= 10; dim++) {
    const style = random()
    if (filled.has(dim)) {
      Object.assign(fields, dimensionCells(dim, story.rows[story.index] ?? [], story.name, random))
    } else if (style < 0.6) {
      // Unfilled dimensions arrive as `escaped`, as an empty field or not at all.
      for (const c of ['specificNL', 'specificStructured', 'generalNL', 'generalStructured']) {
        fields[`${dim}_${c}`] = 'escaped'
      }
    } else if (style < 0.8) fields[`${dim}_specificNL`] = ''
  }
  return fields
}

const HTML_QUESTION =
  '<HTMLQuestion xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2011-11-11/HTMLQuestion.xsd">' +
  '<HTMLContent><![CDATA[<form>GLUCOSE story form</form>]]></HTMLContent><FrameHeight>0</FrameHeight></HTMLQuestion>'

export function seedDemo(state: StandinState, options: DemoOptions): DemoSeed {
  const random = seededRandom(options.seed ?? 7)
  const hex = (n: number): string =>
    Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join('')
  const now = state.now()
  const poolSize = Math.max(12, options.assignmentsPerHit + 2)
  const workers = Array.from(
    { length: poolSize },
    (_, i) => `A${(i + 1).toString(36).toUpperCase().padStart(13, '0')}`,
  )
  const newWorkers = workers.slice(-2)
  const qualified = state.addQualificationType({
    Name: 'GLUCOSE qualified',
    Description: 'Passed the GLUCOSE qualification test',
  })
  const removed = state.addQualificationType({
    Name: 'GLUCOSE disqualified',
    Description: 'Removed from GLUCOSE work',
  })
  state.addQualificationType({ Name: 'Masters', Description: 'Not ours', owned: false })
  for (const w of workers.slice(0, Math.ceil((poolSize * 2) / 3))) {
    state.grant(qualified.QualificationTypeId, w)
  }

  const seed: DemoSeed = {
    hits: [],
    assignments: [],
    workers,
    newWorkers,
    qualificationTypeIds: [qualified.QualificationTypeId, removed.QualificationTypeId],
  }
  for (let i = 0; i < options.hits; i++) {
    const name = NAMES[i % NAMES.length] as string
    const template = STORIES[i % STORIES.length] as readonly string[]
    const story = {
      id: `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`,
      rows: template.map((row) => row.replaceAll('{A}', name).split('|')),
      index: i % 5,
      name,
    }
    const practice = i % 10 === 9
    // The first HIT is 112 days old: within ten days of the 120-day disposal.
    const created = now - (i === 0 ? 112 : 1 + (i % 20)) * DAY_MS
    const hit = state.addHIT({
      Title: practice
        ? `GLUCOSE practice round #${i + 1}`
        : `Explain a sentence of a short story (GLUCOSE) #${i + 1}`,
      HITTypeId: '3T' + (practice ? 'PRACTICE' : 'GLUCOSE').padStart(28, '0'),
      Description: 'Explain what causes and results from one sentence of a five-sentence story.',
      Keywords: 'story, commonsense, GLUCOSE',
      Question: HTML_QUESTION,
      CreationTime: created,
      Expiration: created + 14 * DAY_MS,
      MaxAssignments: options.assignmentsPerHit,
      QualificationRequirements: [
        { QualificationTypeId: qualified.QualificationTypeId, Comparator: 'Exists' },
      ],
    })
    seed.hits.push(hit)
    const first = Math.floor(random() * poolSize)
    for (let k = 0; k < options.assignmentsPerHit; k++) {
      const workerId = workers[(first + k) % poolSize] as string
      const roll = random()
      const status: AssignmentStatus =
        newWorkers.includes(workerId) || roll < 0.25
          ? 'Submitted'
          : roll < 0.85
            ? 'Approved'
            : 'Rejected'
      // Unreviewed work is from the last day, so auto-approval (3 days) has not claimed it yet.
      const submit =
        status === 'Submitted' ? now - random() * DAY_MS : created + random() * (now - created)
      const fields = answerFields(story, random)
      let answer =
        random() < 0.2
          ? crowdFormAnswerXml([fields])
          : htmlFormAnswerXml({
              ...fields,
              assignmentId: 'ASSIGNMENT_ID_NOT_AVAILABLE',
              ...(k % 4 === 0 ? { doNotRedirect: 'true' } : {}),
            })
      const serial = seed.assignments.length + 1
      if (options.brokenEvery && serial % options.brokenEvery === 0) {
        answer = answer.slice(0, answer.length >> 1)
      }
      seed.assignments.push(
        state.addAssignment({
          HITId: hit.HITId,
          WorkerId: workerId,
          AssignmentStatus: status,
          SubmitTime: Math.round(submit),
          AcceptTime: Math.round(submit - (3 + random() * 10) * 60_000),
          Answer: answer,
          ...(status === 'Rejected'
            ? { RequesterFeedback: 'The explanations do not mention the selected sentence.' }
            : {}),
        }),
      )
    }
  }
  return seed
}
