import {
  CellStyleModule,
  ColumnApiModule,
  ColumnAutoSizeModule,
  InfiniteRowModelModule,
  ModuleRegistry,
  RenderApiModule,
  RowApiModule,
  RowSelectionModule,
  RowStyleModule,
  ScrollApiModule,
  TooltipModule,
  themeQuartz,
} from 'ag-grid-community'

// Only what the review grid uses (FORMATS §4): infinite rows, selection, column and row APIs,
// `refreshCells` (the plain DOM cells are redrawn when the search or the rating scale changes) and
// column auto-size (the worker column fits its ids).
ModuleRegistry.registerModules([
  InfiniteRowModelModule,
  RowSelectionModule,
  ColumnApiModule,
  ColumnAutoSizeModule,
  RowApiModule,
  ScrollApiModule,
  RenderApiModule,
  CellStyleModule,
  RowStyleModule,
  TooltipModule,
])

/** Pixels per row: the theme's, and how the grid's feed maps a scroll position to rows. */
export const ROW_HEIGHT = 30

/** The grid in the app's palette: quiet borders, compact rows for all-day reading. */
export const gridTheme = themeQuartz.withParams({
  accentColor: '#2f5fd0',
  backgroundColor: '#ffffff',
  foregroundColor: '#1d2125',
  borderColor: '#e3e6ea',
  chromeBackgroundColor: '#f7f8fa',
  headerTextColor: '#4b535c',
  headerFontWeight: 600,
  fontFamily: 'inherit',
  fontSize: 13,
  headerHeight: 32,
  rowHeight: ROW_HEIGHT,
  spacing: 6,
  wrapperBorder: false,
  wrapperBorderRadius: 0,
  selectedRowBackgroundColor: '#e7eefc',
  oddRowBackgroundColor: '#fbfbfc',
  browserColorScheme: 'light',
})

export const BLOCK_SIZE = 200
