import NextAuth from "next-auth";
import { authOptions, cookiesOf } from "./auth-options";

/**
 * next-auth's handler for the console's auth routes (`/console/api/auth/...`), taking the web
 * `Request` itself: headers and cookies are the request's own (Next.js's `headers()` is not needed),
 * so tests call exactly what the route serves. next-auth runs through its request/response form.
 */
export async function consoleAuthResponse(req: Request, segments: string[]): Promise<Response> {
  const url = new URL(req.url);
  const nodeReq = {
    method: req.method,
    headers: Object.fromEntries(req.headers),
    cookies: cookiesOf(req.headers.get("cookie")),
    query: { ...Object.fromEntries(url.searchParams), nextauth: segments },
    body: await bodyOf(req),
  };
  let status = 200;
  let body: string | undefined;
  const headers = new Headers();
  const res = {
    status(code: number) {
      status = code;
      return res;
    },
    setHeader(name: string, value: string | string[]) {
      headers.delete(name);
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, String(one));
      return res;
    },
    getHeader(name: string) {
      return name.toLowerCase() === "set-cookie" ? headers.getSetCookie() : (headers.get(name) ?? undefined);
    },
    json(value: unknown) {
      headers.set("Content-Type", "application/json");
      body = JSON.stringify(value);
    },
    send(value: unknown) {
      body = typeof value === "string" || value === undefined ? value : JSON.stringify(value);
    },
    end() {},
  };
  await NextAuth(nodeReq as never, res as never, await authOptions());
  return new Response(status === 204 || status === 304 ? null : (body ?? null), { status, headers });
}

/** A POST's form or JSON body, as next-auth reads it; nothing for other methods. */
async function bodyOf(req: Request): Promise<Record<string, unknown> | undefined> {
  if (req.method !== "POST") return undefined;
  const type = req.headers.get("content-type") ?? "";
  if (type.includes("application/json")) return (await req.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (type.includes("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(await req.text()));
  return undefined;
}
