import { z } from 'zod'

/**
 * CROWDAQ's requester-owned resources as the project keeps them: instructions (Markdown),
 * tutorials and exams (multiple-choice question sets), and task specs (contexts and groups of
 * collectors with conditions and constraints). The schemas follow CROWDAQ's published JSON Schemas;
 * `validate.ts` adds the checks those schemas miss.
 */

const resourceId = z.string().regex(/^[a-zA-Z0-9_]+$/, 'expected an id of letters, digits and _')

const hexColour = z.string().regex(/^#[0-9a-fA-F]{3,8}$/, 'expected a hex colour, e.g. #ffcc00')

const highlightSchema = z.object({
  start: z.number().int().min(0),
  end: z.number().int().min(0),
  id: z.string().optional(),
  class: z.string().optional(),
  color: hexColour.optional(),
  background_color: hexColour.optional(),
})

const contextBase = { id: z.string().optional(), label: z.string().optional() }
const mediaSize = { height: z.number().optional(), width: z.number().optional() }

const contextSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('text'),
    ...contextBase,
    text: z.string(),
    highlight: z.array(highlightSchema).optional(),
  }),
  z.object({ type: z.literal('html'), ...contextBase, html: z.string() }),
  z.object({ type: z.literal('image'), ...contextBase, src: z.string(), ...mediaSize }),
  z.object({ type: z.literal('audio'), ...contextBase, src: z.string(), ...mediaSize }),
  z.object({ type: z.literal('video'), ...contextBase, src: z.string(), ...mediaSize }),
])
export type Context = z.infer<typeof contextSchema>

const optionsSchema = z
  .record(z.string(), z.string())
  .refine((o) => Object.keys(o).length > 0, 'expected at least one option')

const questionSchema = z.object({
  type: z.literal('multiple-choice'),
  question_id: z.string().min(1),
  question: z.object({
    context: z.array(contextSchema).optional(),
    question_text: z.string(),
    options: optionsSchema,
  }),
  answer: z.string(),
  explanation: z.record(z.string(), z.string()).optional(),
  /** Kept in the pool but never sampled. */
  disabled: z.boolean().optional(),
})
export type Question = z.infer<typeof questionSchema>

export const examSchema = z.object({
  $schema: z.string().optional(),
  exam_id: resourceId,
  instruction_id: resourceId.optional(),
  tutorial_id: resourceId.optional(),
  question_set: z.array(questionSchema),
  num_of_questions: z.number().int().min(0).optional(),
  max_attempts: z.number().int().min(1).optional(),
  passing_grade: z.number().min(0).max(1).optional(),
  time_limit_in_seconds: z.number().int().min(1).optional(),
  qualification_id: z.string().optional(),
})
export type ExamSpec = z.infer<typeof examSchema>

export const tutorialSchema = z.object({
  $schema: z.string().optional(),
  tutorial_id: resourceId,
  instruction_id: resourceId.optional(),
  question_set: z.array(questionSchema.extend({ explanation: z.record(z.string(), z.string()) })),
})
export type TutorialSpec = z.infer<typeof tutorialSchema>

export type Condition =
  | { op: 'eq'; id: string; value: string }
  | { op: 'and' | 'or'; args: Condition[] }
  | { op: 'not'; arg: Condition }

const conditionSchema: z.ZodType<Condition> = z.lazy(() =>
  z.discriminatedUnion('op', [
    z.object({ op: z.literal('eq'), id: z.string(), value: z.string() }),
    z.object({ op: z.enum(['and', 'or']), args: z.array(conditionSchema) }),
    z.object({ op: z.literal('not'), arg: conditionSchema }),
  ]),
)

const constraintSchema = z.object({
  type: z.literal('regex'),
  regex: z.string(),
  description: z.string().optional(),
})
export type Constraint = z.infer<typeof constraintSchema>

const collectorBase = {
  id: z.string().min(1),
  prompt: z.string().optional(),
  title: z.string().optional(),
  optional: z.boolean().optional(),
  constraints: z.array(constraintSchema).optional(),
  conditions: z.array(conditionSchema).optional(),
}
const repeat = {
  repeated: z.boolean().optional(),
  min: z.number().int().min(0).optional(),
  max: z.number().int().min(0).optional(),
}

const collectorSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), ...collectorBase, ...repeat }),
  z.object({
    type: z.literal('multiple-choice'),
    ...collectorBase,
    options: optionsSchema,
    style: z.literal('select').optional(),
  }),
  z.object({ type: z.literal('multi-label'), ...collectorBase, options: optionsSchema }),
  z.object({
    type: z.literal('span-from-text'),
    ...collectorBase,
    ...repeat,
    from_context: z.string(),
  }),
  z.object({
    type: z.literal('datetime'),
    ...collectorBase,
    granularities: z.array(z.string()).optional(),
  }),
])
export type Collector = z.infer<typeof collectorSchema>

const groupSchema = z.object({
  id: z.string().min(1),
  title: z.string().optional(),
  annotations: z.array(collectorSchema),
  ...repeat,
})
export type Group = z.infer<typeof groupSchema>

export const taskSchema = z.object({
  $schema: z.string().optional(),
  id: z.string().optional(),
  annotation_task_id: z.string().optional(),
  contexts: z.array(contextSchema).optional(),
  annotation_groups: z.array(groupSchema),
  pre_submit_hook: z.array(z.string()).optional(),
})
export type TaskSpec = z.infer<typeof taskSchema>

/** A completed exam assignment as CROWDAQ exports it. */
export const examAssignmentSchema = z.object({
  _id: z.string().optional(),
  exam_id: z.string(),
  worker_id: z.string().min(1),
  worker_platform: z.string().optional(),
  assignment_payload: z.array(z.object({ question_id: z.string() }).loose()),
  response_payload: z.record(z.string(), z.string().nullable()),
  /** When the row was made: the moment the worker opened the attempt. */
  create_at: z.union([z.string(), z.number()]).optional().nullable(),
  start_time: z.union([z.string(), z.number()]).optional().nullable(),
  deadline: z.union([z.string(), z.number()]).optional().nullable(),
  complete_time: z.union([z.string(), z.number()]).nullable().optional(),
  grade: z.number().nullable().optional(),
})

/** A completed task assignment; `response` is a JSON string in CROWDAQ's database. */
export const taskAssignmentSchema = z.object({
  _id: z.string().optional(),
  annotation_taskset_id: z.string().optional(),
  annotation_task_id: z.string().min(1),
  worker_id: z.string().min(1),
  worker_platform: z.string().optional(),
  start_time: z.union([z.string(), z.number()]).optional().nullable(),
  complete_time: z.union([z.string(), z.number()]).optional().nullable(),
  response: z.union([z.string(), z.record(z.string(), z.unknown())]),
})
