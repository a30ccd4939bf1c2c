// ESLint's configuration is the tools/lint package's (see the comment there).
export { default } from 'schedlab-lint';
