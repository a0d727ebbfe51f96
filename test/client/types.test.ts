// The SDK's types are generated from the committed openapi.json; this fails when either
// moved without the other (run `npm run client:types`).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  APP_GENERATED_TYPES,
  CONSOLE_GENERATED_TYPES,
  generateAppClientTypes,
  generateClientTypes,
  generateConsoleClientTypes,
  GENERATED_TYPES,
} from '../../src/client/generate-types.ts';

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

  it('src/client/openapi.console.generated.ts is what openapi.json generates for the console: the supplier API, the admin API and /console, no /login nor /app', async () => {
    const types = fs.readFileSync(CONSOLE_GENERATED_TYPES, 'utf8');
    expect(types).toBe(await generateConsoleClientTypes());
    for (const path of ['/order', '/order/{id}/deliver', '/webhook/deliveries/{id}/redeliver', '/member/{id}', '/credential', '/admin/suppliers', '/admin/store-users', '/console/me', '/console/auth/code']) {
      expect(types, path).toContain(`"${path}": {`);
    }
    expect(types).not.toContain('"/login": {');
    expect(types).not.toContain('"/app/me": {');
    expect(types).not.toContain('"/images/{hash}/{file}": {');
  });
});
