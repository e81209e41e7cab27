/**
 * The character offsets of the page's selection within an element that renders a text context:
 * the element's text nodes, in order, are the context's `text` (highlights only wrap parts of it
 * in `<mark>`), so the length of the text before a boundary is that boundary's offset. A selection
 * reaching past the element is cut to it; null when none of it lies inside.
 */
export function selectedOffsets(
  element: Element,
  selection: Selection | null,
): [number, number] | null {
  if (!selection || selection.rangeCount === 0 || selection.isCollapsed) return null
  const range = selection.getRangeAt(0)
  if (!range.intersectsNode(element)) return null
  const whole = document.createRange()
  whole.selectNodeContents(element)
  const offsetOf = (node: Node, offset: number): number => {
    const before = whole.cloneRange()
    before.setEnd(node, offset)
    return before.toString().length
  }
  const start =
    range.compareBoundaryPoints(Range.START_TO_START, whole) < 0
      ? 0
      : offsetOf(range.startContainer, range.startOffset)
  const end =
    range.compareBoundaryPoints(Range.END_TO_END, whole) > 0
      ? whole.toString().length
      : offsetOf(range.endContainer, range.endOffset)
  return [start, end]
}
