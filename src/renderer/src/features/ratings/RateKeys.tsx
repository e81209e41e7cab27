import { useStore } from '../../lib/store'
import { rateTarget } from '../grid/actions'
import { RatingBadge } from './RatingBadge'
import { ratingScale } from './scale'
import { keyedLevels, ratingText } from './scaleMath'

/**
 * The rating keys of the project's scale as buttons (digit, rating, label): the key map where an
 * annotation is rated with the digits, and a click rates the annotation as its key does.
 */
export function RateKeys({ annotationId }: { annotationId: number }) {
  const scale = useStore(ratingScale)
  return (
    <div className="rate-keys" aria-label="Rating keys">
      {keyedLevels(scale).map(({ key, level }) => (
        <button
          key={key}
          className="small rate-key"
          title={`Rate this annotation ${ratingText(level.value, scale)} (key ${key})`}
          data-testid="rate-key"
          onClick={() => void rateTarget({ kind: 'annotation', id: annotationId }, level.value)}
        >
          <kbd>{key}</kbd>
          <RatingBadge value={level.value} />
          <span className="rate-key-label">{level.label}</span>
        </button>
      ))}
    </div>
  )
}
