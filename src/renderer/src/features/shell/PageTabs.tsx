import { PAGES } from '../../../../shared/pages'
import { isDesktop } from '../../api'
import { useStore } from '../../lib/store'
import { currentPage, goToPage } from './navigation'

/** The page tabs in the title bar: Review and the pages beside it. */
export function PageTabs() {
  const page = useStore(currentPage)
  return (
    <div className="page-tabs" role="tablist" aria-label="Pages">
      {PAGES.map((p, i) => (
        <button
          key={p.id}
          role="tab"
          className="page-tab"
          aria-selected={page === p.id}
          data-testid={`page-tab-${p.id}`}
          title={`${p.hint} (${isDesktop ? 'Ctrl' : 'Alt'}+${i + 1})`}
          onClick={() => goToPage(p.id)}
        >
          {p.label}
        </button>
      ))}
    </div>
  )
}
