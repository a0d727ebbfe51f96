import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig, renderSettingsTable } from '../../src/config.ts';
import { README, settingsTableIn } from '../../scripts/write-settings-table.ts';

describe("README's settings table", () => {
  it('is the one the declarations in src/config.ts render (run `npm run docs:settings` to refresh it)', () => {
    const { table } = settingsTableIn(fs.readFileSync(README, 'utf8'));
    expect(table, 'README.md\'s settings table is stale: run `npm run docs:settings`').toBe(renderSettingsTable());
  });

  it('names each variable once', () => {
    const names = [...renderSettingsTable().matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect(names.length).toBeGreaterThan(50);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it('shows defaults that loadConfig applies', () => {
    const c = loadConfig({});
    const row = (name: string) => renderSettingsTable().split('\n').find((l) => l.startsWith(`| \`${name}\` |`));
    expect(row('PORT')).toMatch(new RegExp(`\\| \`${c.port}\` \\|$`));
    expect(row('BODY_LIMIT_BYTES')).toMatch(new RegExp(`\\| ${c.bodyLimitBytes / 2 ** 20} MiB \\|$`));
    expect(row('STORE_TOKEN_TTL_SECONDS')).toContain(`\`${c.storeTokenTtlSeconds}\``);
  });
});
