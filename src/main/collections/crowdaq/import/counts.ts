import type { CrowdaqImportCounts } from '../../../../shared/crowdaq/contract'
import { plural } from '../../../../shared/text'

/** Each count's words, one and many. */
const COUNT_WORDS: Record<keyof CrowdaqImportCounts, [string, string]> = {
  exams: ['exam', 'exams'],
  tutorials: ['tutorial', 'tutorials'],
  instructions: ['instruction', 'instructions'],
  tasks: ['task', 'tasks'],
  examAttempts: ['exam attempt', 'exam attempts'],
  taskAssignments: ['task assignment', 'task assignments'],
}

/** What an import added, in words: "2 exams, 40 exam attempts". */
export function describeCounts(c: CrowdaqImportCounts): string {
  const parts = (Object.keys(COUNT_WORDS) as (keyof CrowdaqImportCounts)[])
    .filter((k) => c[k] > 0)
    .map((k) => plural(c[k], ...COUNT_WORDS[k]))
  return parts.length > 0 ? parts.join(', ') : 'nothing new'
}
