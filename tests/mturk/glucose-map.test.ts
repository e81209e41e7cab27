import type { Assignment } from '@aws-sdk/client-mturk'
import { describe, expect, it } from 'vitest'
import { AnnotationFlag, SubmissionFlag } from '../../src/shared/glucose/flags'
import { parseAnswer } from '../../src/main/mturk/answers'
import { checkFieldMap, toSubmission } from '../../src/main/mturk/glucose-map'
import { crowdFormAnswerXml, htmlFormAnswerXml } from '../../standin/index'

const STORY = "Sam's dog barked. Sam woke up. Sam fed the dog. The dog slept. Sam smiled."
const D1 = {
  '1_specificNL': "Sam's dog barks >Causes/Enables> Sam wakes up",
  '1_specificStructured':
    "{Sam's dog}_[subject] {barks}_[verb] >Causes/Enables> {Sam}_[subject] {wakes up}_[verb]",
  '1_generalNL': 'Something_A barks >Causes/Enables> Someone_A wakes up',
  '1_generalStructured':
    '{Something_A}_[subject] {barks}_[verb] >Causes/Enables> {Someone_A}_[subject] {wakes up}_[verb]',
}
const D7 = {
  '7_specificNL': 'Sam wakes up >Causes> Sam feel(s) tired',
  '7_specificStructured':
    '{Sam}_[subject] {wakes up}_[verb] >Causes> {Sam}_[subject] {feel(s)}_[verb] {tired}_[object]',
  '7_generalNL': 'Someone_A wakes up >Causes> Someone_A feel(s) tired',
  '7_generalStructured':
    '{Someone_A}_[subject] {wakes up}_[verb] >Causes> {Someone_A}_[subject] {feel(s)}_[verb] {tired}_[object]',
}
const BASE = {
  story_id: '0b6f1c9e-0000-4000-a000-000000000001',
  story: STORY,
  selected_sentence_index: '1',
  selected_sentence: 'Sam woke up.',
}

function assignment(answer: string): Assignment {
  return {
    AssignmentId: '3ASSIGNMENT1',
    WorkerId: 'AWORKER1',
    HITId: '3HIT1',
    AssignmentStatus: 'Submitted',
    AcceptTime: new Date(1_700_000_000_000),
    SubmitTime: new Date(1_700_000_300_500),
    Answer: answer,
  }
}

const map = (answer: string, options = {}) =>
  toSubmission(assignment(answer), parseAnswer(answer), options)

describe('toSubmission', () => {
  it('maps release-named fields into a submission with its filled dimensions', () => {
    const xml = htmlFormAnswerXml({
      ...BASE,
      ...D1,
      ...D7,
      '2_specificNL': 'escaped',
      '2_specificStructured': 'escaped',
      '2_generalNL': 'escaped',
      '2_generalStructured': 'escaped',
      '3_specificNL': '',
    })
    const s = map(xml)
    expect(s).toMatchObject({
      sourceKey: 'a:3ASSIGNMENT1',
      assignmentId: '3ASSIGNMENT1',
      workerExternalId: 'AWORKER1',
      storyExternalId: BASE.story_id,
      storyText: STORY,
      sentences: [{ index: 1, text: 'Sam woke up.' }],
      sentenceIndex: 1,
      acceptedAt: 1_700_000_000,
      submittedAt: 1_700_000_300,
      flags: 0,
      raw: xml,
    })
    expect(s.annotations.map((a) => a.dimension)).toEqual([1, 7])
    expect(s.annotations[0]).toEqual({
      dimension: 1,
      specificNL: D1['1_specificNL'],
      specificStructured: D1['1_specificStructured'],
      generalNL: D1['1_generalNL'],
      generalStructured: D1['1_generalStructured'],
      flags: 0,
    })
  })

  it('reads a crowd-form answer the same way', () => {
    const s = map(crowdFormAnswerXml([{ ...BASE, ...D1, ...D7, number_filled_in: 2 }]))
    expect(s.flags).toBe(0)
    expect(s.declaredFilled).toBe(2)
    expect(s.annotations).toHaveLength(2)
  })

  it('uses a user mapping field → column', () => {
    const xml = htmlFormAnswerXml({
      sid: BASE.story_id,
      text: STORY,
      idx: '1',
      sentence: 'Sam woke up.',
      cause: D1['1_specificNL'],
      causeRule: D1['1_generalNL'],
      feeling: D7['7_specificNL'],
      feelingRule: D7['7_generalNL'],
    })
    const fieldMap = {
      sid: 'story_id',
      text: 'story',
      idx: 'selected_sentence_index',
      sentence: 'selected_sentence',
      cause: '1_specificNL',
      causeRule: '1_generalNL',
      feeling: '7_specificNL',
      feelingRule: '7_generalNL',
    }
    expect(checkFieldMap(fieldMap)).toEqual([])
    const s = map(xml, { map: fieldMap })
    expect(s.storyExternalId).toBe(BASE.story_id)
    expect(s.annotations.map((a) => [a.dimension, a.specificStructured])).toEqual([
      [1, null],
      [7, null],
    ])
    expect(checkFieldMap({ a: 'story', b: 'story', c: 'nope' })).toHaveLength(2)
  })

  it('flags a half-filled dimension, a lone dimension and a wrong selected sentence', () => {
    const xml = htmlFormAnswerXml({
      ...BASE,
      selected_sentence: 'Sam went to school.',
      '1_specificNL': D1['1_specificNL'],
      '1_generalNL': 'escaped',
    })
    const s = map(xml)
    expect(s.annotations).toHaveLength(1)
    expect(s.annotations[0]?.flags).toBe(AnnotationFlag.PartlyEscaped)
    expect(s.flags & SubmissionFlag.SingleDimension).toBeTruthy()
    expect(s.flags & SubmissionFlag.SentenceMismatch).toBeTruthy()
    expect(s.flags & SubmissionFlag.AnnotationFlagged).toBeTruthy()
  })

  it('keeps an answer that does not parse, flagged, with its raw XML', () => {
    const broken = htmlFormAnswerXml({ ...BASE, ...D1 }).slice(0, 120)
    const s = map(broken)
    expect(s).toMatchObject({
      sourceKey: 'a:3ASSIGNMENT1',
      storyExternalId: null,
      storyText: '',
      sentences: [],
      sentenceIndex: -1,
      raw: broken,
      annotations: [],
    })
    expect(s.flags).toBe(SubmissionFlag.AnswerUnparsed)
  })

  it('flags an answer without story fields, including the empty Answer', () => {
    for (const answer of ['', htmlFormAnswerXml({ ...D1 })]) {
      const s = map(answer)
      expect(s.flags & SubmissionFlag.StoryMissing).toBeTruthy()
      expect(s.raw).toBe(answer)
      expect(s).toMatchObject({ storyExternalId: null, annotations: [], sentences: [] })
    }
  })
})
