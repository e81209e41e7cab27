import type { ReleaseCard } from '../contract/release'

/** A field of the dataset card that still holds a stand-in rather than the dataset's own value. */
export interface CardPlaceholder {
  field: 'url' | 'creator'
  /** The field's name as the Release page labels it. */
  label: string
  value: string
}

/** Hosts reserved for examples (RFC 2606 and RFC 6761): no dataset lives there. */
function isExampleHost(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '')
  if (['example.org', 'example.com', 'example.net', 'localhost'].includes(h)) return true
  if (/\.example\.(org|com|net)$/.test(h)) return true
  return /\.(example|test|invalid|localhost)$/.test(h)
}

/** What a creator is called when nobody has said who made the dataset. */
const NOBODY = new Set(['', 'unknown', 'anonymous', 'n/a', 'na', 'none', 'tbd', 'todo', '-', '?'])

/**
 * The card's placeholders: a home page on an example host (the default card's
 * `https://example.org/…`) and a creator such as `unknown`. A release that is not a draft may
 * not carry them into README.md and croissant.json.
 */
export function cardPlaceholders(card: ReleaseCard): CardPlaceholder[] {
  const found: CardPlaceholder[] = []
  let host = ''
  try {
    host = new URL(card.url).hostname
  } catch {
    // The card's schema checks the address; an unreadable one is not a placeholder.
  }
  if (host !== '' && isExampleHost(host))
    found.push({ field: 'url', label: 'Home page', value: card.url })
  if (NOBODY.has(card.creator.trim().toLowerCase()))
    found.push({ field: 'creator', label: 'Creator', value: card.creator })
  return found
}

/** `home page “https://example.org/x” and creator “unknown”` */
export function describePlaceholders(found: readonly CardPlaceholder[]): string {
  const parts = found.map((p) => `${p.label.toLowerCase()} “${p.value}”`)
  return parts.length <= 1
    ? (parts[0] ?? '')
    : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1] ?? ''}`
}
