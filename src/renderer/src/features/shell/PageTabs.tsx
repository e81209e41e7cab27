import { PAGES, pageDigit, pageShown } from '../../../../shared/pages'
import { isDesktop } from '../../api'
import { useStore } from '../../lib/store'
import { projectState } from '../project/project'
import { Menu, type MenuItem } from './Menu'
import { currentPage, goToPage } from './navigation'

const keyName = isDesktop ? 'Ctrl' : 'Alt'

/**
 * The page tabs in the title bar: Review, the pages beside it, and the pages of the collections
 * the project holds. "More collections" opens a collection the project does not hold yet, whose
 * page imports its first files.
 */
export function PageTabs() {
  const page = useStore(currentPage)
  const { collections } = useStore(projectState)
  const hidden = PAGES.filter((p) => !pageShown(p, collections, page))
  const more: MenuItem[] = [
    { heading: true, label: 'Not in this project yet' },
    ...hidden.map((p) => ({
      label: `${p.label}: import a first file…`,
      title: p.hint,
      shortcut: `${keyName}+${pageDigit(p.id)}`,
      testId: `more-collections-${p.id}`,
      onSelect: () => goToPage(p.id),
    })),
  ]
  return (
    <>
      <div className="page-tabs" role="tablist" aria-label="Pages">
        {PAGES.filter((p) => pageShown(p, collections, page)).map((p) => (
          <button
            key={p.id}
            role="tab"
            className="page-tab"
            aria-selected={page === p.id}
            data-testid={`page-tab-${p.id}`}
            title={`${p.hint} (${keyName}+${pageDigit(p.id)})`}
            onClick={() => goToPage(p.id)}
          >
            {p.label}
          </button>
        ))}
      </div>
      {hidden.length > 0 && (
        <Menu
          label="+"
          items={more}
          testId="more-collections"
          ariaLabel="More collections"
          buttonClass="page-tab page-tab-more"
        />
      )}
    </>
  )
}
