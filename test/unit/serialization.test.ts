// The answers' serializer (fast-json-stringify, src/http/serialization.ts) picks an `anyOf`
// branch with an Ajv of its own. It knew only ajv-formats' formats: an answer naming
// `calendar-date` (a delivery zone's exceptions, an order's delivery date) printed "unknown
// format ... ignored" on the process's stderr, outside the JSON log, when it was compiled.
// Every format the API document names must be known to it.
import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildSerializer } from '../../src/http/serialization.ts';

const document = fs.readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8');
const formats = [...new Set([...document.matchAll(/"format": *"([^"]+)"/g)].map((m) => m[1]!))].sort();

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the answers\' serializer', () => {
  it('reads the formats from the API document', () => {
    expect(formats).toEqual(expect.arrayContaining(['calendar-date', 'date-time', 'uri']));
  });

  it.each(formats)('knows the format %s, with no warning when it writes an answer naming it in an anyOf', (format) => {
    const warn = vi.spyOn(console, 'warn');
    // A new schema object each time: serializers are kept per schema object, so this one is compiled here.
    const schema = { type: 'object', properties: { value: { anyOf: [{ type: 'object', properties: { at: { type: 'string', format } } }, { type: 'null' }] } } };
    const serialize = buildSerializer({}, {})({ schema, method: 'GET', url: '/formats', httpStatus: '200' } as never);
    // The branch's check is compiled when an answer first needs it.
    expect(serialize({ value: {} })).toBe('{"value":{}}');
    expect(serialize({ value: null })).toBe('{"value":null}');
    expect(warn.mock.calls.flat().join('\n')).toBe('');
  });

  it('picks the branch whose format the value meets', () => {
    const schema = {
      type: 'object',
      properties: { on: { anyOf: [{ type: 'object', properties: { date: { type: 'string', format: 'calendar-date' } }, required: ['date'] }, { type: 'object', properties: { text: { type: 'string' } } }] } },
    };
    const serialize = buildSerializer({}, {})({ schema, method: 'GET', url: '/branch', httpStatus: '200' } as never);
    expect(serialize({ on: { date: '2026-11-30' } })).toBe('{"on":{"date":"2026-11-30"}}');
    // Not a date that exists: the first branch does not hold, so the second writes the object.
    expect(serialize({ on: { date: '2026-02-30', text: 'moved' } })).toBe('{"on":{"text":"moved"}}');
  });
});
