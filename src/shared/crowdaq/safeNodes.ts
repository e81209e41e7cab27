/**
 * Sanitised HTML as data: a small tree of allow-listed elements and text. Main builds it from
 * requester-written HTML and Markdown after sanitising; the page turns it into elements itself,
 * so no HTML string is ever parsed in the page.
 */
export type SafeNode =
  string | { tag: SafeTag; attrs: Record<string, string>; children: SafeNode[] }

export const SAFE_TAGS = [
  'p',
  'br',
  'hr',
  'span',
  'div',
  'b',
  'strong',
  'i',
  'em',
  'u',
  's',
  'del',
  'ins',
  'mark',
  'sub',
  'sup',
  'small',
  'code',
  'pre',
  'kbd',
  'blockquote',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'a',
  'img',
] as const
export type SafeTag = (typeof SAFE_TAGS)[number]

export const SAFE_ATTRIBUTES: Partial<Record<SafeTag, readonly string[]>> = {
  a: ['href', 'title'],
  img: ['src', 'alt', 'title', 'width', 'height'],
  td: ['colspan', 'rowspan'],
  th: ['colspan', 'rowspan'],
  ol: ['start'],
}

export function isSafeTag(tag: string): tag is SafeTag {
  return (SAFE_TAGS as readonly string[]).includes(tag)
}

/** Links only to the web or mail; images only inline (`data:image/…`). */
export function safeUrl(tag: SafeTag, value: string): boolean {
  const v = value.trim()
  return tag === 'img' ? /^data:image\//i.test(v) : /^(https?:|mailto:)/i.test(v)
}
