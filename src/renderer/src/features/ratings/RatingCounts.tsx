import { useEffect, useState } from 'react'
import { api } from '../../api'
import { formatCount, formatInstant } from '../../lib/format'
import { useStore } from '../../lib/store'
import { projectState } from '../project/project'
import { asOf } from './ratingState'
import { ratingScale } from './scale'
import { formatRating, keyedLevels, levelFor, ratingFromKey } from './scaleMath'

/** Annotations by effective rating for the status bar: now, or as of the picked moment. */
export function RatingCounts() {
  const when = useStore(asOf)
  const { stats, dataVersion } = useStore(projectState)
  const scale = useStore(ratingScale)
  const [past, setPast] = useState<{ asOf: number; byRating: Record<string, number> } | null>(null)

  useEffect(() => {
    if (when === null) return
    let live = true
    api.ratings
      .counts({ asOf: when })
      .then((r) => live && setPast({ asOf: when, byRating: r.byRating }))
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [when, dataVersion])

  const byRating = when === null ? stats?.byRating : past?.asOf === when ? past.byRating : undefined
  if (!byRating)
    return when === null ? null : <span className="status-asof">as of {formatInstant(when)} …</span>
  const keyOf = new Map(keyedLevels(scale).map(({ key, level }) => [level.value, key]))
  const keys = Object.keys(byRating).sort(
    (a, b) => (ratingFromKey(b) ?? -Infinity) - (ratingFromKey(a) ?? -Infinity),
  )
  return (
    <span className="status-ratings" data-testid="status-ratings" data-as-of={when ?? ''}>
      {when !== null && <span className="status-asof">as of {formatInstant(when)}</span>}
      {keys.map((k) => {
        const value = ratingFromKey(k)
        const level = levelFor(scale, value)
        const color = level?.color ?? '#c9ced6'
        const key = value === null ? undefined : keyOf.get(value)
        return (
          <span
            key={k}
            className="status-rating"
            data-testid="status-rating"
            title={
              value === null
                ? 'unrated'
                : `rating ${formatRating(value)}${level ? ` ${level.label}` : ''}${key ? `: key ${key}` : ''}`
            }
          >
            {key && (
              <kbd className="status-key" data-testid="status-key">
                {key}
              </kbd>
            )}
            <span className="dot" style={{ background: color }} />
            {value === null ? 'unrated' : formatRating(value)} {formatCount(byRating[k] ?? 0)}
          </span>
        )
      })}
    </span>
  )
}
