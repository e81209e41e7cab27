import { useState } from 'react'
import type { ReleaseCard, ReleaseSettings, TierStep } from '../../../../shared/contract/release'
import { ratingKey } from '../../../../shared/ratings/key'
import { cardPlaceholders } from '../../../../shared/release/placeholders'
import { api } from '../../api'
import { showError, showInfo } from '../messages/messages'

/**
 * The project's tier map (rating → release tier; empty = left out) and what the dataset card
 * says, saved as project settings.
 */
export function TierMapEditor({
  settings,
  onSaved,
}: {
  settings: ReleaseSettings
  onSaved: (settings: ReleaseSettings) => void
}) {
  const [tiers, setTiers] = useState<Record<string, string>>(() =>
    Object.fromEntries(settings.tierMap.map((s) => [ratingKey(s.rating), String(s.tier)])),
  )
  const [card, setCard] = useState<ReleaseCard>(settings.card)
  const [saving, setSaving] = useState(false)

  async function save() {
    const tierMap: TierStep[] = []
    for (const rating of settings.scale) {
      const text = tiers[ratingKey(rating)]?.trim() ?? ''
      if (text === '') continue
      const tier = Number(text)
      if (!Number.isInteger(tier) || tier < 0) {
        showError(
          'Saving the tier map',
          new Error(`Tier for rating ${ratingKey(rating)} must be a whole number.`),
        )
        return
      }
      tierMap.push({ rating, tier })
    }
    setSaving(true)
    try {
      onSaved(await api.release.saveSettings({ tierMap, card }))
      showInfo('Release settings saved')
    } catch (e) {
      showError('Saving the release settings', e)
    } finally {
      setSaving(false)
    }
  }

  const placeholders = cardPlaceholders(card)
  const cardField = (key: keyof ReleaseCard, label: string) => {
    const placeholder = placeholders.some((p) => p.field === key)
    return (
      <label className="field" key={key}>
        <span>{label}</span>
        <input
          value={card[key]}
          data-testid={`release-card-${key}`}
          aria-invalid={placeholder}
          onChange={(e) => setCard({ ...card, [key]: e.target.value })}
        />
        {placeholder && (
          <span className="field-error">A placeholder: only a draft may be released with it.</span>
        )}
      </label>
    )
  }

  return (
    <div className="tier-map">
      <table className="table compact" data-testid="release-tier-map">
        <thead>
          <tr>
            <th className="num">Rating</th>
            <th>Tier (empty: left out)</th>
          </tr>
        </thead>
        <tbody>
          {settings.scale.map((rating) => (
            <tr key={rating}>
              <td className="num">{ratingKey(rating)}</td>
              <td>
                <input
                  className="tier-input"
                  aria-label={`Tier for rating ${ratingKey(rating)}`}
                  value={tiers[ratingKey(rating)] ?? ''}
                  onChange={(e) => setTiers({ ...tiers, [ratingKey(rating)]: e.target.value })}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <details open={cardPlaceholders(settings.card).length > 0 || undefined}>
        <summary>Dataset card</summary>
        {cardField('name', 'Name')}
        {cardField('description', 'Description')}
        {cardField('license', 'Licence (SPDX id)')}
        {cardField('url', 'Home page')}
        {cardField('creator', 'Creator')}
      </details>
      <button className="small" disabled={saving} onClick={() => void save()}>
        Save tier map and card
      </button>
    </div>
  )
}
