import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { taskReview } from '../../src/main/collections/crowdaq/tasks'
import { importCrowdaq } from '../../src/main/collections/crowdaq/import/import'
import { useProject } from '../mturk/project-helpers'
import { fixture } from './helpers'

const newProject = useProject()
const author = 'test'

/** A task with an HTML context carrying a script, a multi-label and a repeated span group. */
const TASK = {
  annotation_task_id: 'menu_1',
  contexts: [
    {
      type: 'html',
      id: 'menu',
      label: 'Menu',
      html: '<p onclick="steal()">Soup <b>4.50</b></p><script>alert(1)</script>',
    },
    { type: 'text', id: 'note', text: 'Two soups and a salad.' },
  ],
  annotation_groups: [
    {
      id: 'items',
      annotations: [
        {
          type: 'multi-label',
          id: 'dishes',
          prompt: 'Which dishes?',
          options: { S: 'Soup', L: 'Salad', B: 'Bread' },
        },
        { type: 'text', id: 'comment', optional: true },
      ],
    },
    {
      id: 'spans',
      repeated: true,
      annotations: [{ type: 'span-from-text', id: 'qty', from_context: 'note' }],
    },
  ],
}

const row = (worker: string, response: unknown) => ({
  _id: `menu_1_${worker}`,
  annotation_task_id: 'menu_1',
  worker_id: worker,
  complete_time: '2026-02-01T09:00:00Z',
  response: JSON.stringify({ filteredResult: response }),
})

function menuProject(dir: string) {
  const { db } = newProject()
  const task = join(dir, 'menu_task.json')
  const rows = join(dir, 'menu_rows.json')
  writeFileSync(task, JSON.stringify(TASK))
  writeFileSync(
    rows,
    JSON.stringify([
      row('AWA', {
        items: { dishes: ['S', 'L'], comment: '<img src=x onerror=alert(1)>' },
        spans: [{ qty: { start: 0, end: 3, surface: 'Two' } }, { qty: { start: -1, end: -1 } }],
      }),
      row('AWB', { items: { dishes: ['L', 'S'] } }),
      row('AWC', { items: { dishes: ['L', 'S'] } }),
    ]),
  )
  importCrowdaq(db, task, { author })
  importCrowdaq(db, rows, { author })
  return db
}

describe('task responses under review', () => {
  it('lists each response with its task’s contexts, HTML sanitised and workers’ text as text', () => {
    const { dir } = newProject()
    const db = menuProject(dir)
    const review = taskReview(db, 'menu_1')
    expect(review.total).toBe(3)
    expect(review.tasks).toHaveLength(1)
    const task = review.tasks[0]
    expect(task?.contexts.map((c) => c.type)).toEqual(['html', 'text'])
    expect(JSON.stringify(task?.contexts[0]?.html)).not.toMatch(/script|onclick|alert/)
    expect(JSON.stringify(task?.contexts[0]?.html)).toContain('4.50')
    expect(task?.columns).toEqual([
      { key: 'items.dishes', label: 'items: Which dishes?' },
      { key: 'items.comment', label: 'items: comment' },
      { key: 'spans.qty', label: 'spans: qty' },
    ])
    const a = review.responses.find((r) => r.workerId === 'AWA')
    expect(a?.cells).toEqual({
      'items.dishes': { text: 'S Soup, L Salad', disputed: false },
      // Kept verbatim as text; the page never parses it.
      'items.comment': { text: '<img src=x onerror=alert(1)>', disputed: false },
      'spans.qty': { text: '1) “Two” (0–3)', disputed: false },
    })
    // Multi-label answers agree whatever order the labels were ticked in.
    expect(review.agreement).toEqual([
      { key: 'items.dishes', type: 'multi-label', tasks: 1, majorityShare: 1, disagreements: [] },
    ])
    expect(task?.lowestShare).toBe(1)
  })

  it('puts the tasks workers disagree on first and marks the disputed answers', () => {
    const { dir } = newProject()
    const db = menuProject(dir)
    importCrowdaq(db, fixture('task.json'), { author })
    importCrowdaq(db, fixture('task_assignments.json'), { author })
    const review = taskReview(db, undefined)
    expect(review.total).toBe(8)
    // fx_task: aspect 1 of 2 (share ½); menu_1 and fx_task2: everyone agrees.
    expect(review.tasks.map((t) => [t.id, t.lowestShare, t.responses])).toEqual([
      ['fx_task', 0.5, 3],
      ['fx_task2', 1, 2],
      ['menu_1', 1, 3],
    ])
    expect(review.responses.slice(0, 3).map((r) => r.taskId)).toEqual([
      'fx_task',
      'fx_task',
      'fx_task',
    ])
    const one = review.responses.find((r) => r.taskId === 'fx_task' && r.workerId === 'AWONE')
    expect(one?.cells).toEqual({
      'sentiment.polarity': { text: 'A Positive', disputed: true },
      'sentiment.aspect': { text: 'A Food', disputed: true },
      'sentiment.detail': { text: 'soup', disputed: false },
    })
    expect(review.tasks[0]?.contexts[0]?.text).toBe('The soup was cold but the staff were kind.')
  })

  it('lists at most the limit and counts the rest; an empty project has nothing to list', () => {
    const { dir } = newProject()
    const db = menuProject(dir)
    const two = taskReview(db, undefined, 2)
    expect([two.responses.length, two.total, two.tasks[0]?.responses]).toEqual([2, 3, 3])
    const empty = taskReview(newProject().db, undefined)
    expect(empty).toEqual({ agreement: [], tasks: [], responses: [], total: 0 })
  })
})
