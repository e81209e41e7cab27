import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { taskReview } from '../../src/main/collections/crowdaq/tasks'
import { importCrowdaq } from '../../src/main/collections/crowdaq/import/import'
import { useProject } from '../mturk/project-helpers'

const newProject = useProject()

const TASK = {
  annotation_task_id: 'menu_2',
  contexts: [{ type: 'text', id: 'note', text: 'Soup, salad and bread.' }],
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
      ],
    },
  ],
}

/** Four workers' labels for one task: the same set twice (ticked in either order), then two others. */
const LABELS: Record<string, string[]> = {
  AWA: ['S', 'L'],
  AWB: ['L', 'S'],
  AWC: ['L'],
  AWD: ['L', 'B'],
}

function project() {
  const { db, dir } = newProject()
  const task = join(dir, 'menu_task.json')
  const rows = join(dir, 'menu_rows.json')
  writeFileSync(task, JSON.stringify(TASK))
  writeFileSync(
    rows,
    JSON.stringify(
      Object.entries(LABELS).map(([worker, dishes]) => ({
        _id: `menu_2_${worker}`,
        annotation_task_id: 'menu_2',
        worker_id: worker,
        complete_time: '2026-02-01T09:00:00Z',
        response: JSON.stringify({ filteredResult: { items: { dishes } } }),
      })),
    ),
  )
  importCrowdaq(db, task, { author: 'test' })
  importCrowdaq(db, rows, { author: 'test' })
  return db
}

describe('multi-label answers workers disagree on', () => {
  it('agree only where the whole set of labels is the same, whatever order it was ticked in', () => {
    const review = taskReview(project(), 'menu_2')
    // Every worker ticked Salad first or among others: a comparison of one label would call it
    // unanimous. Two of four chose {Salad, Soup}.
    expect(review.agreement).toEqual([
      {
        key: 'items.dishes',
        type: 'multi-label',
        tasks: 1,
        majorityShare: 0.5,
        disagreements: [{ taskId: 'menu_2', share: 0.5, values: { 'L+S': 2, L: 1, 'B+L': 1 } }],
      },
    ])
    expect(review.tasks.map((t) => [t.id, t.lowestShare])).toEqual([['menu_2', 0.5]])
    const cells = Object.fromEntries(
      review.responses.map((r) => [r.workerId, r.cells['items.dishes']]),
    )
    expect(cells).toEqual({
      AWA: { text: 'S Soup, L Salad', disputed: true },
      AWB: { text: 'L Salad, S Soup', disputed: true },
      AWC: { text: 'L Salad', disputed: true },
      AWD: { text: 'L Salad, B Bread', disputed: true },
    })
  })
})
