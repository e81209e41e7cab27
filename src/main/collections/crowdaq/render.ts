import type { ChildNode } from 'domhandler'
import { ElementType, parseDocument } from 'htmlparser2'
import MarkdownIt from 'markdown-it'
import sanitizeHtml from 'sanitize-html'
import {
  SAFE_ATTRIBUTES,
  SAFE_TAGS,
  type SafeNode,
  isSafeTag,
  safeUrl,
} from '../../../shared/crowdaq/safeNodes'

/**
 * Requester-written Markdown and HTML contexts made safe for the page. Markdown is rendered with
 * raw HTML off; both then pass an allow-list sanitiser (sanitize-html): no scripts, no event
 * handlers, no styles, no frames, links only to http(s) and mail, images only inline `data:`
 * (the page's CSP refuses remote ones, and a remote image would tell a third party someone
 * looked). The result goes to the page as a tree of allowed elements, never as an HTML string.
 */

const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false })

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...SAFE_TAGS],
  allowedAttributes: Object.fromEntries(
    Object.entries(SAFE_ATTRIBUTES).map(([tag, attrs]) => [tag, [...attrs]]),
  ),
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['data'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  exclusiveFilter: (frame) =>
    frame.tag === 'img' && !/^data:image\//i.test(frame.attribs.src ?? ''),
}

export function safeHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS)
}

export function markdownHtml(text: string): string {
  return safeHtml(markdown.render(text))
}

function toNodes(nodes: readonly ChildNode[]): SafeNode[] {
  const out: SafeNode[] = []
  for (const n of nodes) {
    if (n.type === ElementType.Text) out.push(n.data)
    else if (n.type === ElementType.Tag && isSafeTag(n.name)) {
      const allowed = SAFE_ATTRIBUTES[n.name] ?? []
      const attrs: Record<string, string> = {}
      for (const [k, v] of Object.entries(n.attribs)) {
        if (!allowed.includes(k)) continue
        if ((k === 'href' || k === 'src') && !safeUrl(n.name, v)) continue
        attrs[k] = v
      }
      out.push({ tag: n.name, attrs, children: toNodes(n.children) })
    }
  }
  return out
}

/** Sanitised HTML as the tree the page renders. */
export function safeNodes(html: string): SafeNode[] {
  return toNodes(parseDocument(safeHtml(html), { decodeEntities: true }).children)
}

export function markdownNodes(text: string): SafeNode[] {
  return safeNodes(markdown.render(text))
}
