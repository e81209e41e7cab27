/**
 * The script the sandbox runs before a policy: the policy API module (`definePolicy`, `rule`,
 * `random`), a `require` that knows only that module, a seeded `Math.random`, a `Date` without a
 * clock, and the facts object built (frozen) from the JSON the host passes in. Plain JavaScript,
 * evaluated inside QuickJS; it never runs in Node. Its value is the host's entry points (`run`,
 * `describe`, `describeError`), kept out of the script's reach.
 */
export const PRELUDE_FILE = 'winnow-policy.js'

/** What the policy's `throw` statements call first (see `markThrows`), recording their line. */
export const THROW_MARKER = '__policyThrowAt'

/** Module names a policy may import the API by. */
const API_MODULES = ['./winnow-policy', 'winnow-policy', './winnow-policy.js']

export const PRELUDE = String.raw`
'use strict'
;(function (global) {
  // The intrinsics the entry points use, taken before the policy can replace them.
  var apply = Reflect.apply
  var construct = Reflect.construct
  var isArray = Array.isArray
  var stringify = JSON.stringify
  var parse = JSON.parse
  var isError = Error.isError
  var slice = String.prototype.slice
  var defineProperty = Object.defineProperty
  var FiniteCheck = Number.isFinite
  function cut(text, max) {
    return text.length > max ? apply(slice, text, [0, max]) + ' …' : text
  }

  var seed = (global.__seed >>> 0) || 1
  function random() {
    // mulberry32
    seed = (seed + 0x6d2b79f5) >>> 0
    var t = seed
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  defineProperty(Math, 'random', { value: random, writable: false, configurable: false })

  // Date without a clock. The engine's own Date is left unreachable: the global, the prototype's
  // constructor and every static point to this one, so no path reads the real time.
  var RealDate = Date
  function noClock() {
    throw new Error('A policy has no clock: give dates explicitly, e.g. new Date("2017-05-01").')
  }
  function PolicyDate(...args) {
    if (new.target === undefined || args.length === 0) noClock()
    return construct(RealDate, args, new.target)
  }
  defineProperty(PolicyDate, 'prototype', { value: RealDate.prototype, writable: false })
  defineProperty(PolicyDate, 'name', { value: 'Date' })
  defineProperty(PolicyDate, 'length', { value: 7 })
  defineProperty(PolicyDate, 'UTC', { value: RealDate.UTC, writable: true, configurable: true })
  defineProperty(PolicyDate, 'parse', { value: RealDate.parse, writable: true, configurable: true })
  var now = { now() { noClock() } }.now
  defineProperty(PolicyDate, 'now', { value: now, writable: true, configurable: true })
  defineProperty(RealDate, 'now', { value: now })
  defineProperty(RealDate.prototype, 'constructor', { value: PolicyDate, writable: true, configurable: true })
  defineProperty(global, 'Date', { value: PolicyDate, writable: true, configurable: true })
  delete global.__seed

  var policyFile = global.__policyFile
  delete global.__policyFile
  var fact = global.__fact
  delete global.__fact

  // The line of the last throw statement run: a thrown value that is not an Error has no stack.
  var thrownAt
  defineProperty(global, '${THROW_MARKER}', {
    value: function (line) {
      thrownAt = line
    },
  })

  function callerLine() {
    var stack = new Error().stack || ''
    var marker = policyFile + ':'
    var lines = stack.split('\n')
    for (var i = 0; i < lines.length; i++) {
      var at = lines[i].lastIndexOf(marker)
      if (at < 0) continue
      var n = parseInt(lines[i].slice(at + marker.length), 10)
      if (n > 0) return n
    }
    return undefined
  }

  var api = Object.freeze({
    definePolicy: function (definition) {
      return definition
    },
    rule: function (spec) {
      var line = callerLine()
      var out = Object.assign({}, spec)
      if (line !== undefined) out.line = line
      return out
    },
    random: random,
  })
  var modules = ${JSON.stringify(API_MODULES)}
  global.require = function (name) {
    if (modules.indexOf(name) >= 0) return api
    throw new Error('A policy can import only the policy API (./winnow-policy), not ' + JSON.stringify(name) + '.')
  }
  global.exports = {}
  global.module = { exports: global.exports }

  /** Freezes a value and what its data properties hold; a getter (a lazy table) is not called. */
  function freeze(value) {
    if (value && typeof value === 'object' && !Object.isFrozen(value)) {
      Object.freeze(value)
      var own = Object.getOwnPropertyDescriptors(value)
      for (var key in own) if ('value' in own[key]) freeze(own[key].value)
    }
    return value
  }

  function countOf(list, rating, field) {
    for (var i = 0; i < list.length; i++) if (list[i].rating === rating) return list[i][field]
    return 0
  }

  /** Lazily asks the host for a per-worker table once (byDay, byDimension). */
  function lazyTable(kind) {
    var table
    return function (id) {
      if (table === undefined) table = freeze(parse(fact(kind)))
      return table[id] || freeze([])
    }
  }

  function buildFacts(json) {
    var raw = parse(json)
    var byDay = lazyTable('byDay')
    var byDimension = lazyTable('byDimension')
    var workers = raw.workers.map(function (w) {
      var out = {
        id: w.id,
        submissions: w.submissions,
        annotations: w.annotations,
        firstSubmission: w.firstSubmission,
        lastSubmission: w.lastSubmission,
        byRating: w.byRating,
        submissionsRated: function (r) {
          return countOf(w.byRating, r, 'submissions')
        },
        annotationsRated: function (r) {
          return countOf(w.byRating, r, 'annotations')
        },
      }
      Object.defineProperty(out, 'byDay', { get: function () { return byDay(w.id) }, enumerable: true })
      Object.defineProperty(out, 'byDimension', {
        get: function () { return byDimension(w.id) },
        enumerable: true,
      })
      return freeze(out)
    })
    var index = new Map()
    for (var w of workers) index.set(w.id, w)
    return freeze({
      scale: raw.scale,
      ratings: raw.ratings,
      workers: workers,
      worker: function (id) {
        return index.get(id)
      },
      audits: raw.audits,
      firstSubmission: raw.firstSubmission,
      lastSubmission: raw.lastSubmission,
    })
  }

  function definition() {
    var d = global.module.exports !== global.exports ? global.module.exports : global.exports
    d = d && d.default !== undefined ? d.default : d
    if (!d || typeof d !== 'object' || typeof d.rules !== 'function') {
      throw new Error('The policy must export default definePolicy({ name, params, rules(facts, params) { … } }).')
    }
    return d
  }

  /**
   * A problem with what the script hands back, found as it is turned into JSON: the path to the
   * value (rules[2].to) and what is wrong with it. JSON would carry NaN and Infinity as null.
   */
  function Unsendable(path, problem) {
    this.path = path
    this.problem = problem
  }
  function within(inner, outer) {
    if (inner.length > outer.length) return false
    for (var i = 0; i < inner.length; i++) if (inner[i] !== outer[i]) return false
    return true
  }
  function toJson(value) {
    var paths = new Map()
    return stringify(value, function (key, item) {
      var path = paths.has(this) ? paths.get(this).concat([key]) : []
      if (typeof item === 'number' && !FiniteCheck(item)) throw new Unsendable(path, 'expected a finite number, got ' + item)
      if (typeof item === 'bigint') throw new Unsendable(path, 'expected a number, got a BigInt')
      if (item !== null && typeof item === 'object') {
        if (paths.has(item) && within(paths.get(item), path)) throw new Unsendable(path, 'contains itself, which JSON cannot carry')
        paths.set(item, path)
      }
      return item
    })
  }

  /** The value as JSON for the host, or what keeps it from being sent, at a rule's line. */
  function sent(value) {
    try {
      var json = toJson(value)
      return json === undefined ? '{}' : '{"value":' + json + '}'
    } catch (e) {
      if (!(e instanceof Unsendable)) throw e
      var line
      try {
        var item = isArray(value) ? value[e.path[0]] : undefined
        if (item && typeof item.line === 'number') line = item.line
      } catch (ignored) {
        line = undefined
      }
      return stringify({ unsendable: { path: e.path, problem: e.problem, line: line } })
    }
  }

  function text(value, max) {
    if (value === undefined) return undefined
    try {
      return cut(typeof value === 'string' ? value : '' + value, max)
    } catch (e) {
      return '(unreadable)'
    }
  }

  function kindOf(value) {
    if (value === null) return 'null'
    if (isArray(value)) return 'an array'
    var type = typeof value
    if (type === 'undefined') return 'undefined'
    return type === 'object' ? 'an object' : 'a ' + type
  }

  function field(error, name) {
    try {
      return error[name]
    } catch (e) {
      return undefined
    }
  }

  /** What was thrown, in a few short fields; reading it may run the policy's getters or traps. */
  function describeError(error) {
    var out = { thrownAt: thrownAt }
    try {
      if (isError(error)) {
        out.name = text(field(error, 'name'), 200)
        out.message = text(field(error, 'message'), 2000)
        var stack = field(error, 'stack')
        if (typeof stack === 'string') out.stack = cut(stack, 4000)
      } else {
        out.kind = kindOf(error)
        var shown
        try {
          if (error !== null && error !== undefined) {
            shown = typeof error === 'symbol' ? String(error) : stringify(error)
          }
        } catch (e) {
          shown = undefined
        }
        if (typeof shown === 'string') out.shown = cut(shown, 300)
      }
    } catch (e) {
      out.unreadable = true
    }
    return stringify(out)
  }

  return {
    describe: function () {
      var d = definition()
      return sent({ name: d.name, description: d.description, params: d.params || {} })
    },
    run: function (factsJson, paramsJson) {
      var d = definition()
      return sent(d.rules(buildFacts(factsJson), freeze(parse(paramsJson))))
    },
    describeError: describeError,
  }
})(globalThis)
`
