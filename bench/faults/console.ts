import type { Sample } from "./traffic";
import { REQUEST_BOUND_MS } from "./traffic";

/**
 * A console user of the fault scenarios' deployment, signed in as the console's pages sign in
 * (next-auth's credentials flow over HTTP: its CSRF token, then `callback/credentials`), who then
 * calls the console's search procedures over its tRPC endpoint (`/console/api/trpc`) with the
 * session cookie, as the console's screens do. One session per web process.
 */
export async function consoleUser(baseUrls: string[], email: string, password: string, samples: Sample[]) {
  const jars = await Promise.all(baseUrls.map((baseUrl) => signIn(baseUrl, email, password)));
  /** One search as a screen sends it (tRPC's GET with `input`); never throws: no answer within the bound is status 0. */
  const search = async (web: number, procedure: string, input: unknown): Promise<number> => {
    const at = Date.now();
    try {
      const response = await fetch(`${baseUrls[web]}/console/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`, {
        headers: { cookie: cookieHeader(jars[web]) },
        signal: AbortSignal.timeout(REQUEST_BOUND_MS),
      });
      await response.arrayBuffer();
      samples.push({ at, web, kind: "console", status: response.status, ms: Date.now() - at });
      return response.status;
    } catch {
      samples.push({ at, web, kind: "console", status: 0, ms: Date.now() - at });
      return 0;
    }
  };
  return { search };
}

type Jar = Map<string, string>;

function keep(jar: Jar, response: Response): void {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const at = pair.indexOf("=");
    jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
  }
}

const cookieHeader = (jar: Jar) => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");

async function signIn(baseUrl: string, email: string, password: string): Promise<Jar> {
  const jar: Jar = new Map();
  const auth = `${baseUrl}/console/api/auth`;
  const csrf = await fetch(`${auth}/csrf`);
  keep(jar, csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const answer = await fetch(`${auth}/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(jar) },
    body: new URLSearchParams({ email, password, csrfToken, callbackUrl: `${baseUrl}/console`, json: "true" }).toString(),
  });
  keep(jar, answer);
  if (![...jar.keys()].some((name) => name.endsWith("next-auth.session-token"))) {
    throw new Error(`console sign-in at ${baseUrl} failed: ${answer.status} ${await answer.text()}`);
  }
  return jar;
}
