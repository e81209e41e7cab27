import { useStore } from '../../lib/store'
import { ratingScale } from '../ratings/scale'
import { keyedLevels, ratingText } from '../ratings/scaleMath'
import { Modal } from './Modal'

const GENERAL: [string, string][] = [
  ['?', 'Show this help'],
  ['Ctrl+O / Ctrl+N', 'Open / new project'],
  ['Ctrl+I', 'Import data files'],
  ['Alt+1 … Alt+9', 'Go to a page (Review, …; Ctrl+digit in the desktop app)'],
  ['/', 'Search statements and rules'],
  [
    'Enter / ↓',
    'From a filter field to the first row it found (adding the worker or story picked)',
  ],
  ['Alt+← / Alt+→', 'Back / forward through filter history'],
  ['Esc', 'Close the side panel or dialog'],
]

const GRID: [string, string][] = [
  ['↑ / ↓ or j / k', 'Previous / next row'],
  ['Enter', 'Open the story view'],
  ['Space', 'Select or unselect the row'],
  ['Shift+↑ / Shift+↓, Shift+click', 'Extend the selection'],
  ['Ctrl+A', 'Select all rows of this query'],
  ['Ctrl+C', 'Copy the selected rows as TSV'],
  ['w', 'Open the worker panel for the row'],
  ['Right-click', 'The actions of the selection (or the row clicked): rate, story, worker, copy'],
]

const RATING: [string, string][] = [
  ['Other digits', 'Rate nothing, and a note says so with the keys that do'],
  ['Shift+digit', 'The same for the whole submission'],
  ['x', 'Clear the item rating (fall back to the worker timeline)'],
  ['Ctrl+Z / Ctrl+Shift+Z', 'Undo / redo the last rating change (or Undo on its note)'],
]

const TRIAGE: [string, string][] = [
  ['↑ / ↓', 'Pick the previous / next annotation of the submission'],
  ['g / w / b', 'Mark the picked annotation good / needs work / bad; the pick stays (x clears)'],
  ['n', 'Write the note of its mark (Enter or Esc saves it and goes back to the keys)'],
  ['Digits', 'Rate it as in the grid (Shift: the whole submission; Ctrl+Z undoes)'],
  ['Enter / →', 'Reviewed: next submission (← goes back)'],
  ['f', 'Write feedback for the worker (Esc back to the keys)'],
  ['r', 'Rate the worker'],
  ['Esc', 'Back to the day'],
]

const AUDIT: [string, string][] = [
  ['y / n / s', 'Judge the item yes / no / skip (u clears)'],
  ['← / →', 'Previous / next item'],
]

/** The key map, including the rating keys of this project's scale. */
export function HelpOverlay({ onClose }: { onClose: () => void }) {
  const scale = useStore(ratingScale)
  const ratingKeys: [string, string][] = keyedLevels(scale).map(({ key, level }) => [
    key,
    ratingText(level.value, scale),
  ])
  return (
    <Modal
      title="Keyboard shortcuts"
      onClose={onClose}
      testId="help-overlay"
      className="modal-help"
    >
      <div className="help-columns">
        <KeyTable title="Everywhere" rows={GENERAL} />
        <KeyTable title="Grid and story view" rows={GRID} />
        <KeyTable title="Rate the focused annotation" rows={[...ratingKeys, ...RATING]} />
        <KeyTable title="Triage queue (Today)" rows={TRIAGE} />
        <KeyTable title="Audit" rows={AUDIT} />
      </div>
    </Modal>
  )
}

function KeyTable({ title, rows }: { title: string; rows: [string, string][] }) {
  return (
    <section>
      <h4>{title}</h4>
      <table className="keys">
        <tbody>
          {rows.map(([keys, what]) => (
            <tr key={keys}>
              <td>
                {keys.split(' / ').map((k, i) => (
                  <span key={k}>
                    {i > 0 && ' / '}
                    <kbd>{k}</kbd>
                  </span>
                ))}
              </td>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
