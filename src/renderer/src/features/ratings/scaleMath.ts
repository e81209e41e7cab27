/** Pure helpers over the project's rating scale (no DOM, tested in tests/renderer). */

export interface ScaleLevel {
  value: number
  label: string
  color: string
}

/** The scale step for a value, if the value is on the scale. */
export function levelFor(scale: readonly ScaleLevel[], value: number | null): ScaleLevel | null {
  if (value === null) return null
  return scale.find((l) => l.value === value) ?? null
}

/** `3 · Top`, `1.5`, `unrated`. Minus signs are typographic. */
export function ratingText(value: number | null, scale: readonly ScaleLevel[] = []): string {
  if (value === null) return 'unrated'
  const n = formatRating(value)
  const level = levelFor(scale, value)
  return level ? `${n} · ${level.label}` : n
}

/** `-1` → `−1` for display; the shortest decimal otherwise. */
export function formatRating(value: number): string {
  return String(value).replace('-', '−')
}

/** Black or white text, whichever reads better on the given `#rrggbb` background. */
export function textOn(color: string): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color)
  if (!m) return '#1d2125'
  const [r, g, b] = [m[1], m[2], m[3]].map((h) => {
    const c = parseInt(h ?? '0', 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
  return luminance > 0.4 ? '#1d2125' : '#ffffff'
}

/**
 * Digit keys for rating: a whole value 0–9 on the scale gets its own digit (3 rates 3), the other
 * values (1.5, −1, −2 …) take the free digits from 4 up, in scale order, so every level has a key
 * while the common ones stay obvious.
 */
export function keyedLevels(scale: readonly ScaleLevel[]): { key: string; level: ScaleLevel }[] {
  const sorted = [...scale].sort((a, b) => b.value - a.value)
  const taken = new Map<string, ScaleLevel>()
  for (const level of sorted) {
    if (Number.isInteger(level.value) && level.value >= 0 && level.value <= 9) {
      taken.set(String(level.value), level)
    }
  }
  const free = ['4', '5', '6', '7', '8', '9', '1', '2', '3', '0'].filter((k) => !taken.has(k))
  for (const level of sorted) {
    if ([...taken.values()].includes(level)) continue
    const key = free.shift()
    if (key === undefined) break
    taken.set(key, level)
  }
  return [...taken.entries()]
    .map(([key, level]) => ({ key, level }))
    .sort((a, b) => b.level.value - a.level.value)
}

/** Ratings as keys of `byRating` maps ("3", "1.5", "-1", "unrated"), back to values. */
export function ratingFromKey(key: string): number | null {
  if (key === 'unrated') return null
  const n = Number(key)
  return Number.isFinite(n) ? n : null
}
