/**
 * A Winnow policy. Edit the rules, dry run to see what they would move, then apply.
 * Rules are ordered: an annotation is moved by the first rule that selects it.
 */
import { definePolicy, rule } from './winnow-policy'

export default definePolicy({
  name: 'My policy',
  params: {
    minSubmissions: {
      type: 'number',
      label: 'Workers with at least this many submissions',
      default: 50,
      min: 0,
    },
    to: { type: 'rating', label: 'Rate their unrated work', default: 1 },
  },
  rules(facts, params) {
    const busy = facts.workers.filter((w) => w.submissions >= params.minSubmissions)
    return [
      rule({
        name: 'Unrated work of busy workers',
        where: { workers: busy.map((w) => w.id), ratings: [null] },
        to: params.to,
        reason: 'rated by policy',
      }),
      rule({
        name: 'Rushing (−2) → 2',
        where: { ratings: [-2] },
        to: 2,
        reason: 'rushed, but the rules are good',
      }),
    ]
  },
})
