/** sucrase's parser, which the package ships (with its types apart) but does not name as an entry. */
declare module 'sucrase/dist/parser/index.js' {
  export { parse } from 'sucrase/dist/types/parser/index'
}
declare module 'sucrase/dist/parser/tokenizer/types.js' {
  export { TokenType } from 'sucrase/dist/types/parser/tokenizer/types'
}
