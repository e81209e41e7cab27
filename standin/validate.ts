/**
 * Input checks the SDK leaves to the service (FORMATS §3.1: "the SDK validates nothing"):
 * required members, patterns, ranges and lengths, answered as ParameterValidationError.
 */
import { invalidParameter } from './wire'

type Rule = { req?: boolean } & (
  | { t: 'id' | 'workerId' | 'money' | 'bool' | 'any' }
  | { t: 'string'; min?: number; max?: number }
  | { t: 'int'; min?: number; max?: number }
  | { t: 'enum' | 'enums'; values: readonly string[] }
  | { t: 'workerIds'; max: number }
)
export type Rules = Record<string, Rule>

const ID = /^[A-Z0-9]{1,64}$/
const WORKER_ID = /^A[A-Z0-9]{0,63}$/
const MONEY = /^[0-9]+(\.)?[0-9]{0,2}$/

export const PAGE_RULES: Rules = {
  NextToken: { t: 'string', min: 1, max: 255 },
  MaxResults: { t: 'int', min: 1, max: 100 },
}

function valid(rule: Rule, v: unknown): boolean {
  switch (rule.t) {
    case 'id':
      return typeof v === 'string' && ID.test(v)
    case 'workerId':
      return typeof v === 'string' && WORKER_ID.test(v)
    case 'money':
      return typeof v === 'string' && MONEY.test(v)
    case 'bool':
      return typeof v === 'boolean'
    case 'any':
      return true
    case 'string':
      return (
        typeof v === 'string' && v.length >= (rule.min ?? 0) && v.length <= (rule.max ?? Infinity)
      )
    case 'int':
      return (
        typeof v === 'number' &&
        Number.isInteger(v) &&
        v >= (rule.min ?? -Infinity) &&
        v <= (rule.max ?? Infinity)
      )
    case 'enum':
      return typeof v === 'string' && rule.values.includes(v)
    case 'enums':
      return Array.isArray(v) && v.every((x) => typeof x === 'string' && rule.values.includes(x))
    case 'workerIds':
      return (
        Array.isArray(v) &&
        v.length >= 1 &&
        v.length <= rule.max &&
        v.every((x) => typeof x === 'string' && WORKER_ID.test(x))
      )
  }
}

/** Checks `input` against `rules` and returns typed accessors for the members. */
export function validate(input: Record<string, unknown>, rules: Rules): Args {
  for (const [name, rule] of Object.entries(rules)) {
    const v = input[name]
    if (v === undefined || v === null) {
      if (rule.req) throw invalidParameter(name, undefined)
      continue
    }
    if (!valid(rule, v)) throw invalidParameter(name, v)
  }
  return new Args(input)
}

export class Args {
  constructor(private readonly input: Record<string, unknown>) {}

  has(name: string): boolean {
    return this.input[name] !== undefined && this.input[name] !== null
  }

  str(name: string): string {
    return this.input[name] as string
  }

  optStr(name: string): string | undefined {
    return this.has(name) ? (this.input[name] as string) : undefined
  }

  optInt(name: string): number | undefined {
    return this.has(name) ? (this.input[name] as number) : undefined
  }

  optBool(name: string): boolean | undefined {
    return this.has(name) ? (this.input[name] as boolean) : undefined
  }

  strings(name: string): string[] | undefined {
    return this.has(name) ? (this.input[name] as string[]) : undefined
  }
}
