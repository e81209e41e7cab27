import { useEffect, useState } from 'react'
import { type AnnotationFilter, filterKey } from '../../../../shared/filter'
import { api } from '../../api'
import { useStore } from '../../lib/store'
import { showError } from '../messages/messages'
import { ratingsVersion } from '../ratings/ratingState'

/**
 * How many annotations `filter` selects, for a dialog: null while counting. Counted on main's
 * count thread, so the app stays free meanwhile; a newer filter replaces the unfinished count,
 * and closing the dialog cancels it. Counted again after a rating change.
 */
export function useFilterTotal(filter: AnnotationFilter | null): number | null {
  const key = filter ? filterKey(filter) : null
  const version = useStore(ratingsVersion)
  // The total with what it counted: a total of another filter or of older ratings is not shown.
  const [counted, setCounted] = useState<{ of: string; total: number } | null>(null)
  const asked = `${version}:${key}`

  useEffect(() => {
    if (key === null) return
    let live = true
    let retried = false
    const ask = (): void => {
      api.review
        .count({ filter: JSON.parse(key) as AnnotationFilter })
        .then((r) => {
          if (!live) return
          // Null: cancelled while still wanted (a closed dialog's cancel arrived after this count
          // began): ask once more. One dialog counts at a time; a second would replace this count.
          if (r.total !== null) setCounted({ of: asked, total: r.total })
          else if (!retried) {
            retried = true
            ask()
          }
        })
        .catch((e: unknown) => live && showError('Counting the annotations of this filter', e))
    }
    ask()
    return () => {
      live = false
    }
  }, [key, asked])

  // Closing the dialog stops its count; a changed filter replaces it on its own.
  useEffect(
    () => () => {
      void api.review.cancelCount({}).catch(() => undefined)
    },
    [],
  )
  return counted?.of === asked ? counted.total : null
}
