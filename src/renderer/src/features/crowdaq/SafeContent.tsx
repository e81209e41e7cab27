import { type ReactNode, createElement } from 'react'
import type { PreviewContext } from '../../../../shared/crowdaq/contract'
import {
  type SafeNode,
  SAFE_ATTRIBUTES,
  isSafeTag,
  safeUrl,
} from '../../../../shared/crowdaq/safeNodes'

const REACT_NAMES: Record<string, string> = { colspan: 'colSpan', rowspan: 'rowSpan' }

/**
 * Sanitised HTML from main, built as elements here with the same allow-list checked again: no
 * HTML string is parsed in the page. Links open outside the app, never with the opener.
 */
export function SafeContent({ nodes }: { nodes: readonly SafeNode[] }) {
  return <>{nodes.map((n, i) => render(n, i))}</>
}

function render(node: SafeNode, key: number): ReactNode {
  if (typeof node === 'string') return node
  if (!isSafeTag(node.tag)) return null
  const allowed = SAFE_ATTRIBUTES[node.tag] ?? []
  const props: Record<string, string | number> = { key }
  for (const [k, v] of Object.entries(node.attrs)) {
    if (!allowed.includes(k)) continue
    if ((k === 'href' || k === 'src') && !safeUrl(node.tag, v)) continue
    props[REACT_NAMES[k] ?? k] = v
  }
  if (node.tag === 'a') {
    props.rel = 'noopener noreferrer'
    props.target = '_blank'
  }
  if (node.tag === 'br' || node.tag === 'hr' || node.tag === 'img')
    return createElement(node.tag, props)
  return createElement(
    node.tag,
    props,
    node.children.map((c, i) => render(c, i)),
  )
}

/** A task or question context: text as text (with its highlights), HTML sanitised, media by address. */
export function ContextView({
  context,
  chosen = [],
}: {
  context: PreviewContext
  /** Spans a worker has picked in this text, marked apart from the requester's highlights. */
  chosen?: readonly SpanRange[]
}) {
  return (
    <figure className="cq-context" data-testid="cq-context">
      {context.label && <figcaption className="cq-context-label">{context.label}</figcaption>}
      {context.type === 'text' && (
        <HighlightedText
          text={context.text ?? ''}
          spans={context.highlight}
          chosen={chosen}
          contextId={context.id}
        />
      )}
      {context.type === 'html' && (
        <div className="cq-context-html">
          <SafeContent nodes={context.html ?? []} />
        </div>
      )}
      {(context.type === 'image' || context.type === 'audio' || context.type === 'video') && (
        <p className="note">
          {context.type} at <span className="mono">{context.src}</span> (remote media is not loaded
          here)
        </p>
      )}
    </figure>
  )
}

interface SpanRange {
  start: number
  end: number
}

function HighlightedText({
  text,
  spans,
  chosen,
  contextId,
}: {
  text: string
  spans: readonly SpanRange[]
  chosen: readonly SpanRange[]
  /** Named on the element so a span collector can find the text its selection is in. */
  contextId: string | null
}) {
  // Picked spans first: where one overlaps a requester highlight, the worker's choice shows.
  const marks = [
    ...chosen.map((s) => ({ ...s, picked: true })),
    ...spans.map((s) => ({ ...s, picked: false })),
  ]
    .filter((s) => s.end > s.start)
    .sort((a, b) => a.start - b.start || Number(b.picked) - Number(a.picked))
  const parts: ReactNode[] = []
  let at = 0
  marks.forEach((s, i) => {
    if (s.start < at) return
    parts.push(text.slice(at, s.start))
    parts.push(
      <mark key={i} className={s.picked ? 'cq-picked' : undefined}>
        {text.slice(s.start, s.end)}
      </mark>,
    )
    at = s.end
  })
  parts.push(text.slice(at))
  return (
    <p className="cq-context-text" data-context-id={contextId ?? undefined}>
      {parts}
    </p>
  )
}
