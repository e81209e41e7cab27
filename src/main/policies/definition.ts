import { z } from 'zod'
import type { PolicyOutline, PolicyParam, PolicyParamValue } from '../../shared/contract/policies'
import { UserError } from '../../shared/contract/errors'
import { annotationFilterSchema, isDay } from '../../shared/filter'
import { formatCount } from '../../shared/text'
import { PolicyError } from './sandbox'

/** What a script declares and returns, checked on the host side: the script is untrusted. */

const label = z.string().max(200).optional()
const number = z.number().finite()
const paramSpecSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('number'),
    label,
    default: number.nullable(),
    min: number.optional(),
    max: number.optional(),
    optional: z.boolean().optional(),
  }),
  z.strictObject({
    type: z.literal('rating'),
    label,
    default: number.nullable(),
    optional: z.boolean().optional(),
  }),
  z.strictObject({ type: z.literal('ratings'), label, default: z.array(number).max(100) }),
  z.strictObject({ type: z.literal('workers'), label, default: z.array(z.string()).max(100_000) }),
  z.strictObject({ type: z.literal('boolean'), label, default: z.boolean() }),
])

const outlineSchema = z.object({
  name: z.string().min(1).max(200),
  description: z.string().max(2000).optional(),
  params: z.record(
    z
      .string()
      .regex(/^[A-Za-z_$][\w$]*$/)
      .max(100),
    paramSpecSchema,
  ),
})

const day = z.string().refine(isDay, 'expected a day, YYYY-MM-DD')

const selectionSchema = z.strictObject({
  workers: z.array(z.string().min(1).max(200)).max(100_000).optional(),
  ratings: z.array(number.nullable()).max(50).optional(),
  dimensions: z.array(z.number().int().min(1).max(10)).max(10).optional(),
  submitted: z.strictObject({ from: day.optional(), to: day.optional() }).optional(),
  filter: annotationFilterSchema.optional(),
})

const ruleSchema = z.strictObject({
  name: z.string().min(1).max(200),
  where: selectionSchema,
  to: number,
  reason: z.string().max(500).optional(),
  line: z.number().int().positive().optional(),
})

export type PolicyRule = z.infer<typeof ruleSchema>

function issueText(error: z.ZodError): { path: string; message: string } {
  const issue = error.issues[0]
  return {
    path: issue ? issue.path.map(String).join('.') : '',
    message: issue?.message ?? 'invalid',
  }
}

export function readOutline(raw: unknown, file: string): PolicyOutline {
  const parsed = outlineSchema.safeParse(raw)
  if (!parsed.success) {
    const { path, message } = issueText(parsed.error)
    throw new PolicyError(
      'policy-definition',
      `The policy's definition is invalid at ${path || 'the top'}: ${message}`,
      { file },
    )
  }
  const params: PolicyParam[] = Object.entries(parsed.data.params).map(([name, spec]) => {
    const common = { name, label: spec.label ?? name }
    switch (spec.type) {
      case 'number':
        return {
          ...common,
          type: 'number',
          default: spec.default,
          optional: spec.optional ?? false,
          ...(spec.min !== undefined ? { min: spec.min } : {}),
          ...(spec.max !== undefined ? { max: spec.max } : {}),
        }
      case 'rating':
        return {
          ...common,
          type: 'rating',
          default: spec.default,
          optional: spec.optional ?? false,
        }
      case 'ratings':
        return { ...common, type: 'ratings', default: spec.default }
      case 'workers':
        return { ...common, type: 'workers', default: spec.default }
      case 'boolean':
        return { ...common, type: 'boolean', default: spec.default }
    }
  })
  return { name: parsed.data.name, description: parsed.data.description ?? '', params }
}

/**
 * The most rules a policy may return. Selecting them is one pass whatever their number, but each
 * is a row of the report, its samples and a note; one rule can name many workers or ratings.
 */
export const MAX_RULES = 10_000

export function readRules(raw: unknown, file: string): PolicyRule[] {
  if (!Array.isArray(raw)) {
    throw new PolicyError('policy-rules', '`rules(facts, params)` must return an array of rules.', {
      file,
    })
  }
  if (raw.length > MAX_RULES) {
    throw new PolicyError(
      'policy-rules',
      `The policy returned ${formatCount(raw.length)} rules; at most ${formatCount(MAX_RULES)} are allowed. One rule can select many workers, ratings, dimensions or days at once.`,
      { file },
    )
  }
  return raw.map((item: unknown, i) => {
    const parsed = ruleSchema.safeParse(item)
    if (parsed.success) return parsed.data
    const line = (item as { line?: unknown } | null)?.line
    const { path, message } = issueText(parsed.error)
    throw new PolicyError(
      'policy-rules',
      `Rule ${i + 1}${path ? ` (${path})` : ''}: ${message}`,
      typeof line === 'number' ? { file, line } : { file },
    )
  })
}

export interface ParamContext {
  scale: readonly number[]
  /** Which of these worker ids the project does not know. */
  unknownWorkers(ids: readonly string[]): string[]
}

/**
 * The parameters' values: the defaults, overridden by the given ones (from the form, or
 * `--param name=value` text from the command line). Every value is checked against its type.
 */
export function resolveParams(
  outline: PolicyOutline,
  given: Record<string, PolicyParamValue | string>,
  context: ParamContext,
): Record<string, PolicyParamValue> {
  const out: Record<string, PolicyParamValue> = {}
  const known = new Set(outline.params.map((p) => p.name))
  for (const name of Object.keys(given)) {
    if (!known.has(name)) {
      const names = outline.params.map((p) => p.name).join(', ') || 'none'
      throw paramError(name, `the policy has no parameter '${name}' (it has: ${names})`)
    }
  }
  for (const param of outline.params) {
    const value = Object.hasOwn(given, param.name) ? given[param.name] : param.default
    out[param.name] = resolveParam(param, value ?? null, context)
  }
  return out
}

function paramError(name: string, message: string): UserError {
  return new UserError({
    type: 'invalid-argument',
    code: 'policy-param',
    message: `Parameter ${name}: ${message}.`,
    field: name,
  })
}

function listOf(value: PolicyParamValue | string): unknown[] {
  if (typeof value === 'string') {
    return value
      .split(/[\s,]+/)
      .map((s) => s.trim())
      .filter((s) => s !== '')
  }
  return Array.isArray(value) ? value : [value]
}

function toNumber(name: string, value: unknown): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  if (typeof n !== 'number' || !Number.isFinite(n)) {
    throw paramError(name, `expected a number, got ${JSON.stringify(value)}`)
  }
  return n
}

function onScale(name: string, value: number, scale: readonly number[]): number {
  if (!scale.includes(value)) {
    throw paramError(name, `${value} is not on this project's rating scale (${scale.join(', ')})`)
  }
  return value
}

function resolveParam(
  param: PolicyParam,
  value: PolicyParamValue | string,
  context: ParamContext,
): PolicyParamValue {
  const { name } = param
  switch (param.type) {
    case 'number':
    case 'rating': {
      if (value === null || value === '') {
        if (param.optional) return null
        throw paramError(name, 'a value is required')
      }
      const n = toNumber(name, value)
      if (param.type === 'rating') return onScale(name, n, context.scale)
      if (param.min !== undefined && n < param.min)
        throw paramError(name, `must be at least ${param.min}, got ${n}`)
      if (param.max !== undefined && n > param.max)
        throw paramError(name, `must be at most ${param.max}, got ${n}`)
      return n
    }
    case 'ratings':
      return [...new Set(listOf(value).map((v) => onScale(name, toNumber(name, v), context.scale)))]
    case 'workers': {
      const ids = [...new Set(listOf(value).map(String))]
      const unknown = context.unknownWorkers(ids)
      if (unknown.length > 0) {
        throw paramError(
          name,
          `no worker ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ' …' : ''} in this project`,
        )
      }
      return ids
    }
    case 'boolean': {
      if (typeof value === 'boolean') return value
      if (value === 'true' || value === 'yes' || value === '1') return true
      if (value === 'false' || value === 'no' || value === '0') return false
      throw paramError(name, `expected true or false, got ${JSON.stringify(value)}`)
    }
  }
}
