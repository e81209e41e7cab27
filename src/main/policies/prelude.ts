/**
 * The script the sandbox runs before a policy: the policy API module (`definePolicy`, `rule`,
 * `random`), a `require` that knows only that module, a seeded `Math.random`, a `Date` without a
 * clock, and the facts object built (frozen) from the JSON the host passes in. Plain JavaScript,
 * evaluated inside QuickJS; it never runs in Node.
 */
export const PRELUDE_FILE = 'winnow-policy.js'

/** Module names a policy may import the API by. */
const API_MODULES = ['./winnow-policy', 'winnow-policy', './winnow-policy.js']

export const PRELUDE = String.raw`
'use strict'
;(function (global) {
  var seed = (global.__seed >>> 0) || 1
  function random() {
    // mulberry32
    seed = (seed + 0x6d2b79f5) >>> 0
    var t = seed
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  Object.defineProperty(Math, 'random', { value: random, writable: false, configurable: false })

  var RealDate = Date
  function noClock() {
    throw new Error('A policy has no clock: give dates explicitly, e.g. new Date("2017-05-01").')
  }
  class PolicyDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) noClock()
      super(...args)
    }
    static now() {
      noClock()
    }
  }
  global.Date = PolicyDate
  delete global.__seed

  var policyFile = global.__policyFile
  delete global.__policyFile
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
      if (table === undefined) table = freeze(JSON.parse(global.__fact(kind)))
      return table[id] || freeze([])
    }
  }

  global.__buildFacts = function (json) {
    var raw = JSON.parse(json)
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

  global.__definition = function () {
    var d = global.module.exports !== global.exports ? global.module.exports : global.exports
    d = d && d.default !== undefined ? d.default : d
    if (!d || typeof d !== 'object' || typeof d.rules !== 'function') {
      throw new Error('The policy must export default definePolicy({ name, params, rules(facts, params) { … } }).')
    }
    return d
  }

  global.__describe = function () {
    var d = global.__definition()
    return JSON.stringify({ name: d.name, description: d.description, params: d.params || {} })
  }

  global.__run = function (factsJson, paramsJson) {
    var d = global.__definition()
    var rules = d.rules(global.__buildFacts(factsJson), freeze(JSON.parse(paramsJson)))
    return JSON.stringify(rules)
  }
})(globalThis)
`
