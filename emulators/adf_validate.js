// Atlassian's own ADF validator (@atlaskit/adf-utils `validator()`, throwing mode) over JSON lines:
// one ADF document a line on stdin, one verdict a line on stdout: {"ok": true} or {"ok": false, "error": "..."}.
// Run by emulators/adf_atlaskit.py with NODE_PATH pointing at the pinned install.
'use strict';
// The package checks feature gates that are never initialised outside Atlassian and logs that once: keep
// stdout for verdicts only.
console.log = console.warn = console.error = console.info = console.debug = () => {};
const { validator } = require('@atlaskit/adf-utils/validator');
const readline = require('readline');

const validate = validator();
const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('line', (line) => {
  let verdict;
  try {
    validate(JSON.parse(line));
    verdict = { ok: true };
  } catch (err) {
    verdict = { ok: false, error: String((err && err.message) || err) };
  }
  process.stdout.write(JSON.stringify(verdict) + '\n');
});
