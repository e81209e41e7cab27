import type { Transition } from '../../../../shared/contract/ratings'
import { formatCount } from '../../lib/format'
import { RatingBadge } from './RatingBadge'

/** "From → to: how many annotations" — what a rating action does or did. */
export function Transitions({ transitions }: { transitions: readonly Transition[] }) {
  const moving = transitions.filter((t) => t.count > 0 && t.from !== t.to)
  if (moving.length === 0) return <p className="note">No effective rating changes.</p>
  return (
    <table className="table transitions" data-testid="transitions">
      <thead>
        <tr>
          <th>From</th>
          <th />
          <th>To</th>
          <th className="num">Annotations</th>
        </tr>
      </thead>
      <tbody>
        {moving.map((t, i) => (
          <tr key={i} data-testid="transition">
            <td>
              <RatingBadge value={t.from} />
            </td>
            <td className="arrow">→</td>
            <td>
              <RatingBadge value={t.to} />
            </td>
            <td className="num">{formatCount(t.count)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
