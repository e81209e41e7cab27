import { parseNL, parseStructured, type Slot } from '../../../../shared/glucose/grammar'

/** Slot tags grouped by colour family: subject, verb, object*, preposition*, anything else. */
function tagFamily(tag: string): string {
  if (tag.startsWith('subject')) return 'subject'
  if (tag.startsWith('verb')) return 'verb'
  if (tag.startsWith('object')) return 'object'
  if (tag.startsWith('preposition')) return 'preposition'
  return 'other'
}

function SlotChip({ slot }: { slot: Slot }) {
  return (
    <span className={`slot slot-${tagFamily(slot.tag)}`} title={slot.raw}>
      <span className="slot-tag">{slot.tag}</span>
      <span className="slot-text">{slot.text}</span>
      {slot.clause !== undefined && <span className="slot-clause">{slot.clause}</span>}
    </span>
  )
}

function Connector({ text }: { text: string }) {
  return <span className="slot-connector">{text}</span>
}

/**
 * A statement as its slots: from the Structured cell when there is one (subject, verb, object,
 * preposition and attribute clauses as chips), otherwise the two NL halves around the connector.
 * A cell that does not parse says so; its text is still shown verbatim above.
 */
export function SlotChips({ nl, structured }: { nl: string; structured: string | null }) {
  const parsed = structured ? parseStructured(structured) : null
  if (parsed) {
    return (
      <div className="slots" data-testid="slot-chips">
        {parsed.left.map((s, i) => (
          <SlotChip key={`l${i}`} slot={s} />
        ))}
        <Connector text={parsed.connector} />
        {parsed.right.map((s, i) => (
          <SlotChip key={`r${i}`} slot={s} />
        ))}
      </div>
    )
  }
  const halves = parseNL(nl)
  if (halves) {
    return (
      <div className="slots" data-testid="slot-chips">
        <span className="slot slot-other">
          <span className="slot-tag">left</span>
          <span className="slot-text">{halves.left}</span>
        </span>
        <Connector text={halves.connector} />
        <span className="slot slot-other">
          <span className="slot-tag">right</span>
          <span className="slot-text">{halves.right}</span>
        </span>
        {structured && <span className="badge badge-warn">Structured cell does not parse</span>}
      </div>
    )
  }
  return (
    <div className="slots">
      <span className="badge badge-warn">does not parse</span>
    </div>
  )
}
