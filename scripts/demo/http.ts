// The few calls the supplier SDK does not cover, because they are not the supplier's:
// the operators' admin API (`Authorization: Bearer <ADMIN_TOKEN>`) and the store app
// (`/app`, a store user's token). Plain fetch and JSON; a non-2xx answer throws with the
// service's problem details.

export class CallFailed extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    request: string,
  ) {
    const problem = body as { code?: string; detail?: string; requestId?: string } | undefined;
    super(`${request} answered ${status}${problem?.code ? ` ${problem.code}` : ''}${problem?.detail ? `: ${problem.detail}` : ''}${problem?.requestId ? ` (request id ${problem.requestId})` : ''}`);
  }
}

export type JsonCall = <T = any>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, headers?: Record<string, string>) => Promise<T>;

/** A JSON caller for `baseUrl` that sends `Authorization: Bearer <token()>`. */
export function jsonCaller(baseUrl: string, token: () => string | undefined): JsonCall {
  return async (method, path, body, headers = {}) => {
    const bearer = token();
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed = text ? JSON.parse(text) : undefined;
    if (!response.ok) throw new CallFailed(response.status, parsed, `${method} ${path}`);
    return parsed;
  };
}
