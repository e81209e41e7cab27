import { useStore } from '../../lib/store'
import { ratingScale } from './scale'
import { formatRating, levelFor, textOn } from './scaleMath'

/** Where an effective rating comes from (annotations.rating_source). */
export type RatingSource = 'item' | 'worker' | 'file' | 'none'

export const SOURCE_MARK: Record<RatingSource, string> = {
  item: 'item',
  worker: 'worker',
  file: 'file',
  none: '',
}
export const SOURCE_TITLE: Record<RatingSource, string> = {
  item: 'rated on this item',
  worker: "from the worker's rating timeline",
  file: 'as the imported file gave it',
  none: '',
}

/** A rating as a pill in the project's colour for it, with its source in small type. */
export function RatingBadge({ value, source }: { value: number | null; source?: RatingSource }) {
  const scale = useStore(ratingScale)
  if (value === null) return <span className="rating rating-none">unrated</span>
  const level = levelFor(scale, value)
  const style = level ? { background: level.color, color: textOn(level.color) } : undefined
  return (
    <span
      className="rating"
      title={[level?.label, source ? SOURCE_TITLE[source] : ''].filter(Boolean).join(' · ')}
    >
      <span className="rating-pill" style={style}>
        {formatRating(value)}
      </span>
      {source && source !== 'none' && <span className="rating-source">{SOURCE_MARK[source]}</span>}
    </span>
  )
}
