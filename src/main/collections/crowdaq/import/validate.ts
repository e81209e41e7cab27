import type { z } from 'zod'
import { compileConstraint, conditionTargets } from '../../../../shared/crowdaq/conditions'
import {
  type Question,
  type TaskSpec,
  examAssignmentSchema,
  examSchema,
  taskAssignmentSchema,
  taskSchema,
  tutorialSchema,
} from '../../../../shared/crowdaq/spec'
import type { JsonPath } from './problems'

export interface PathProblem {
  path: JsonPath
  message: string
}

export type ItemKind = 'exam' | 'tutorial' | 'task' | 'examAttempt' | 'taskAssignment'

const SCHEMAS = {
  exam: examSchema,
  tutorial: tutorialSchema,
  task: taskSchema,
  examAttempt: examAssignmentSchema,
  taskAssignment: taskAssignmentSchema,
} satisfies Record<ItemKind, z.ZodType>

export type ItemValue<K extends ItemKind> = z.infer<(typeof SCHEMAS)[K]>

/** Checks one item against its schema and then what the schema misses (FORMATS.md §5.2). */
export function validateItem<K extends ItemKind>(
  kind: K,
  value: unknown,
): { value: ItemValue<K>; problems: [] } | { value: null; problems: PathProblem[] } {
  const parsed = SCHEMAS[kind].safeParse(value)
  if (!parsed.success) {
    return {
      value: null,
      problems: parsed.error.issues.map((i) => ({
        path: i.path.filter((p): p is string | number => typeof p !== 'symbol'),
        message: i.message,
      })),
    }
  }
  const item = parsed.data as ItemValue<K>
  const problems =
    kind === 'exam' || kind === 'tutorial'
      ? questionProblems((item as { question_set: Question[] }).question_set)
      : kind === 'task'
        ? taskProblems(item as TaskSpec)
        : []
  return problems.length > 0 ? { value: null, problems } : { value: item, problems: [] }
}

function questionProblems(questions: readonly Question[]): PathProblem[] {
  const problems: PathProblem[] = []
  const seen = new Map<string, number>()
  questions.forEach((q, i) => {
    const first = seen.get(q.question_id)
    if (first !== undefined) {
      problems.push({
        path: ['question_set', i, 'question_id'],
        message: `question id '${q.question_id}' is used twice (also at question_set[${first}])`,
      })
    } else seen.set(q.question_id, i)
    const keys = Object.keys(q.question.options)
    if (!keys.includes(q.answer)) {
      problems.push({
        path: ['question_set', i, 'answer'],
        message: `answer '${q.answer}' is not one of the options (${keys.join(', ')})`,
      })
    }
  })
  return problems
}

function taskProblems(task: TaskSpec): PathProblem[] {
  const problems: PathProblem[] = []
  const textContexts = new Set(
    (task.contexts ?? []).filter((c) => c.type === 'text' && c.id).map((c) => c.id),
  )
  task.annotation_groups.forEach((group, g) => {
    const at = (...rest: (string | number)[]): JsonPath => ['annotation_groups', g, ...rest]
    if (group.min !== undefined && group.max !== undefined && group.min > group.max) {
      problems.push({ path: at('min'), message: `min ${group.min} is more than max ${group.max}` })
    }
    const ids = new Map<string, number>()
    group.annotations.forEach((c, i) => {
      const first = ids.get(c.id)
      if (first !== undefined) {
        problems.push({
          path: at('annotations', i, 'id'),
          message: `collector id '${c.id}' is used twice in group '${group.id}' (also at annotations[${first}])`,
        })
      } else ids.set(c.id, i)
    })
    group.annotations.forEach((c, i) => {
      const here = (...rest: (string | number)[]): JsonPath => at('annotations', i, ...rest)
      c.conditions?.forEach((condition, k) => {
        for (const target of conditionTargets(condition)) {
          if (!ids.has(target)) {
            problems.push({
              path: here('conditions', k),
              message: `condition refers to '${target}', not a collector of group '${group.id}'`,
            })
          } else if (target === c.id) {
            problems.push({
              path: here('conditions', k),
              message: 'a collector cannot depend on itself',
            })
          }
        }
      })
      c.constraints?.forEach((constraint, k) => {
        if (!compileConstraint(constraint)) {
          problems.push({
            path: here('constraints', k, 'regex'),
            message: `regex ${JSON.stringify(constraint.regex)} does not compile`,
          })
        }
      })
      if (c.type === 'span-from-text' && !textContexts.has(c.from_context)) {
        problems.push({
          path: here('from_context'),
          message: `from_context '${c.from_context}' is not the id of a text context`,
        })
      }
      if ('min' in c && c.min !== undefined && c.max !== undefined && c.min > c.max) {
        problems.push({ path: here('min'), message: `min ${c.min} is more than max ${c.max}` })
      }
    })
  })
  return problems
}
