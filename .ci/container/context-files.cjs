// Prints, NUL-separated, the files of the images' build context: the work tree's files as git sees them (tracked,
// and untracked unless ignored) that .dockerignore keeps, matched by a port of Docker's own rules, so the container
// suite's inputs hash follows .dockerignore instead of repeating it. Run from the repository root.
const { execFileSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const dockerignore = require('@balena/dockerignore');

const rules = dockerignore().add(readFileSync('.dockerignore', 'utf8').split('\n'));
const files = execFileSync('git', ['ls-files', '-z', '-co', '--exclude-standard'], { maxBuffer: 64 * 1024 * 1024 })
  .toString()
  .split('\0')
  .filter(Boolean);
for (const file of rules.filter(files)) process.stdout.write(`${file}\0`);
