// OpenTelemetry tracing, on only when OTEL_EXPORTER_OTLP_ENDPOINT is set. Off, nothing of
// the SDK is imported and no hook is installed: the modules below are loaded with dynamic
// imports inside startTracing. On, spans cover:
// - every HTTP request (@fastify/otel), with the request id on its span;
// - every query the application sends, on PostgreSQL and on embedded PGlite alike
//   (Kysely's query log: one span per query, timed by Kysely, under the active span);
// - outbound HTTP through undici (webhook attempts, image downloads), the URL's
//   credentials and query values redacted (redactedUrl);
// - a batch's application and a webhook attempt, each a span of its own linked to the
//   request that caused it (the traceparent stored on the batch or delivery row).
// Spans go out in batches over OTLP/HTTP (JSON) to `${endpoint}/v1/traces`.
import type { Attributes, Link, Span } from '@opentelemetry/api';
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import type { LogEvent } from 'kysely';
import { parseTraceparent } from './trace-context.ts';

export interface Tracing {
  /** Kysely's `log` option: a span for each query, started when it was sent. */
  onQuery(event: LogEvent): void;
  /** @fastify/otel's plugin; registered before any route. */
  readonly fastifyPlugin: FastifyPluginCallback;
  /** Runs `fn` in a new span (a root: background work), linked to the span `origin` names when there is one. */
  inSpan<T>(name: string, attributes: Attributes, origin: string | null, fn: () => Promise<T>): Promise<T>;
  /** Sends what is buffered and stops. */
  shutdown(): Promise<void>;
}

const MAX_STATEMENT = 2000;

export async function startTracing(settings: { otlpEndpoint: string | undefined; otelServiceName: string }): Promise<Tracing | undefined> {
  if (!settings.otlpEndpoint) return undefined;
  const [api, { NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }, { registerInstrumentations }, { UndiciInstrumentation }, { FastifyOtelInstrumentation }] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/instrumentation'),
    import('@opentelemetry/instrumentation-undici'),
    import('@fastify/otel'),
  ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.otelServiceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${settings.otlpEndpoint}/v1/traces` }), { scheduledDelayMillis: 1000 })],
  });
  // The AsyncLocalStorage context manager and the W3C propagator: a query's span finds its request's.
  provider.register();
  const fastifyOtel = new FastifyOtelInstrumentation({
    // Hook spans (onRequest, preHandler ...) would triple the spans of a request for little.
    instrumentHooks: false,
    ignorePaths: (route) => route.url === '/metrics' || route.url === '/healthz' || route.url === '/readyz',
    requestHook: (span: Span, request: FastifyRequest) => span.setAttribute('http.request.id', request.id),
  });
  // Outbound URLs carry what suppliers put in them (a webhook's `?token=`, a signed image
  // URL): the span gets them redacted, over the instrumentation's own url.full and url.query.
  const undici = new UndiciInstrumentation({
    startSpanHook: (request: { origin: string; path: string }) => {
      const url = redactedUrl(new URL(request.path, request.origin).href);
      return { 'url.full': url, 'url.query': url.includes('?') ? url.slice(url.indexOf('?')).replace(/#.*$/, '') : '' };
    },
  });
  registerInstrumentations({ tracerProvider: provider, instrumentations: [fastifyOtel, undici] });
  const tracer = provider.getTracer('surtido');

  return {
    onQuery(event) {
      const text = event.query.sql;
      const operation = /^\s*(\w+)/.exec(text)?.[1]?.toLowerCase() ?? 'query';
      const end = performance.timeOrigin + performance.now();
      const span = tracer.startSpan(operation, {
        kind: api.SpanKind.CLIENT,
        startTime: end - event.queryDurationMillis,
        attributes: { 'db.system.name': 'postgresql', 'db.operation.name': operation, 'db.query.text': text.length > MAX_STATEMENT ? `${text.slice(0, MAX_STATEMENT)}...` : text },
      });
      if (event.level === 'error') {
        const error = event.error as Error & { code?: string };
        span.setStatus({ code: api.SpanStatusCode.ERROR, message: error?.message });
        if (error?.code) span.setAttribute('db.response.status_code', error.code);
      }
      span.end(end);
    },
    fastifyPlugin: fastifyOtel.plugin(),
    inSpan(name, attributes, origin, fn) {
      const parent = origin ? parseTraceparent(origin) : undefined;
      const links: Link[] = parent ? [{ context: { ...parent, isRemote: true } }] : [];
      return tracer.startActiveSpan(name, { root: true, attributes, links }, async (span) => {
        try {
          return await fn();
        } catch (error) {
          span.recordException(error as Error);
          span.setStatus({ code: api.SpanStatusCode.ERROR, message: (error as Error).message });
          throw error;
        } finally {
          span.end();
        }
      });
    },
    async shutdown() {
      fastifyOtel.disable();
      await provider.shutdown();
    },
  };
}

/**
 * A URL as spans may show it (OpenTelemetry's advice for url.full): user and password as
 * `REDACTED:REDACTED`, every query value `REDACTED` (the names stay). Query values cannot be
 * told apart (a webhook's `?token=`, a signed URL's `Signature=`), so none is kept.
 */
export function redactedUrl(href: string): string {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return 'REDACTED';
  }
  if (url.username || url.password) {
    url.username = 'REDACTED';
    url.password = 'REDACTED';
  }
  if (url.search) {
    const parts = url.search.slice(1).split('&');
    url.search = parts.map((p) => (p === '' ? p : p.includes('=') ? `${p.slice(0, p.indexOf('='))}=REDACTED` : 'REDACTED')).join('&');
  }
  return url.href;
}

/** `fn` in a linked span when tracing is on; just `fn` when it is off. */
export function inSpan<T>(tracing: Tracing | undefined, name: string, attributes: Attributes, origin: string | null, fn: () => Promise<T>): Promise<T> {
  return tracing ? tracing.inSpan(name, attributes, origin, fn) : fn();
}
