// The SDK's types are generated from the committed openapi.json; this fails when either
// moved without the other (run `npm run client:types`).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ConsolePath } from '../../src/client/console.ts';
import {
  APP_GENERATED_TYPES,
  CONSOLE_GENERATED_TYPES,
  generateAppClientTypes,
  generateClientTypes,
  generateConsoleClientTypes,
  GENERATED_TYPES,
} from '../../src/client/generate-types.ts';

const GENERATED = [GENERATED_TYPES, APP_GENERATED_TYPES, CONSOLE_GENERATED_TYPES];

// What a console session calls: the supplier API's paths (from openapi.generated.ts) and
// its own (openapi.console.generated.ts), in one `paths`. Checked by `npm run typecheck`.
const consolePaths = ['/order', '/order/{id}/deliver', '/webhook/deliveries/{id}/redeliver', '/member/{id}', '/credential', '/admin/suppliers', '/admin/store-users', '/console/me'] satisfies ConsolePath[];
// @ts-expect-error POST /login is the supplier API's only, never a console session's
const login: ConsolePath = '/login';

describe('generated client types', () => {
  it('src/client/openapi.generated.ts is what openapi.json generates (run `npm run client:types` to refresh)', async () => {
    expect(fs.readFileSync(GENERATED_TYPES, 'utf8')).toBe(await generateClientTypes());
  });

  it('holds the supplier API only', () => {
    const types = fs.readFileSync(GENERATED_TYPES, 'utf8');
    expect(types).toContain('"/batch/pricelist": {');
    expect(types).toContain('"/login": {');
    expect(types).not.toContain('"/admin/suppliers": {');
    expect(types).not.toContain('"/app/me": {');
  });

  it('src/client/openapi.app.generated.ts is what openapi.json generates for the store app, and holds /app only', async () => {
    const types = fs.readFileSync(APP_GENERATED_TYPES, 'utf8');
    expect(types).toBe(await generateAppClientTypes());
    expect(types).toContain('"/app/me": {');
    expect(types).toContain('"/app/stores/{storeId}/cancel-codes": {');
    expect(types).not.toContain('"/batch/pricelist": {');
    expect(types).not.toContain('"/admin/suppliers": {');
  });

  it('src/client/openapi.console.generated.ts is what openapi.json generates for the console: the admin API and /console, adding them to the supplier types without copying those', async () => {
    const types = fs.readFileSync(CONSOLE_GENERATED_TYPES, 'utf8');
    expect(types).toBe(await generateConsoleClientTypes());
    for (const path of ['/admin/suppliers', '/admin/store-users', '/console/me', '/console/auth/code']) expect(types, path).toContain(`"${path}": {`);
    for (const path of ['/order', '/order/{id}/deliver', '/member/{id}', '/credential', '/login', '/app/me', '/images/{hash}/{file}']) expect(types, path).not.toContain(`"${path}": {`);
    expect(types).toContain("from './openapi.generated.ts'");
    expect(consolePaths).toContain('/admin/store-users');
    expect(login).toBe('/login');
  });

  it('every generated file says so on its first line, and .gitattributes marks it generated', () => {
    const attributes = fs.readFileSync(new URL('../../.gitattributes', import.meta.url), 'utf8');
    expect(attributes).toMatch(/^src\/client\/\*\.generated\.ts linguist-generated$/m);
    for (const file of GENERATED) {
      expect(file.pathname).toMatch(/\.generated\.ts$/);
      expect(fs.readFileSync(file, 'utf8').split('\n')[0], file.pathname).toMatch(/^\/\/ Code generated .* DO NOT EDIT\.$/);
    }
  });
});
