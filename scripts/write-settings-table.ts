// npm run docs:settings: writes README.md's settings table, between its marker comments,
// from the declarations in src/config.ts. test/foundation/settings-table.test.ts fails
// while the committed table differs.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderSettingsTable } from '../src/config.ts';

export const README = fileURLToPath(new URL('../README.md', import.meta.url));
const START = '<!-- settings:start (written by npm run docs:settings from src/config.ts) -->';
const END = '<!-- settings:end -->';

/** The table between the markers, and where it sits. */
export function settingsTableIn(readme: string): { table: string; from: number; to: number } {
  const from = readme.indexOf(START);
  const to = readme.indexOf(END);
  if (from < 0 || to < from) throw new Error(`README.md has no "${START}" ... "${END}" markers`);
  return { table: readme.slice(from + START.length, to).replace(/^\n/, ''), from: from + START.length, to };
}

export function withSettingsTable(readme: string): string {
  const { from, to } = settingsTableIn(readme);
  return `${readme.slice(0, from)}\n${renderSettingsTable()}${readme.slice(to)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const before = fs.readFileSync(README, 'utf8');
  const after = withSettingsTable(before);
  if (after === before) console.log('README.md: the settings table is up to date');
  else {
    fs.writeFileSync(README, after);
    console.log('README.md: wrote the settings table');
  }
}
