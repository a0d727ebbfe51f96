// The W3C traceparent of the work in progress, stored with the work a request causes (a
// batch, a webhook delivery) so that applying it later, in a worker, links back to the
// request. Only @opentelemetry/api is used here, never the SDK: with tracing off there is
// no active span and `currentTraceparent` answers null at the cost of a context lookup.
import { trace, TraceFlags, type SpanContext } from '@opentelemetry/api';

export function currentTraceparent(): string | null {
  const context = trace.getActiveSpan()?.spanContext();
  if (!context || !trace.isSpanContextValid(context)) return null;
  return `00-${context.traceId}-${context.spanId}-${(context.traceFlags & TraceFlags.SAMPLED ? 1 : 0).toString(16).padStart(2, '0')}`;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

export function parseTraceparent(value: string): Pick<SpanContext, 'traceId' | 'spanId' | 'traceFlags'> | undefined {
  const match = TRACEPARENT.exec(value);
  if (!match) return undefined;
  return { traceId: match[1]!, spanId: match[2]!, traceFlags: parseInt(match[3]!, 16) };
}
