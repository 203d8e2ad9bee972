import { createConsoleApiHandler } from "../composition/console-api";
import { consoleUserOf } from "../features/console/auth-options";
import { consoleAuthResponse } from "../features/console/auth-route";
import { CONSOLE_AUTH_BASE_PATH } from "../features/console/constants";

/** The origin the console's auth routes are served under in tests (setup-db's PUBLIC_BASE_URL). */
const ORIGIN = "http://localhost:3999";
// As the web process's start hook sets it (src/server/boot.ts): next-auth v4 builds its URLs from it.
process.env.NEXTAUTH_URL ??= `${ORIGIN}${CONSOLE_AUTH_BASE_PATH}`;

type AuthRoute = typeof consoleAuthResponse;

/** The console's tRPC endpoint exactly as its route builds it (`src/app/console/api/trpc`). */
const consoleApi = createConsoleApiHandler((req) => consoleUserOf(req.headers));

/**
 * A browser for the console's real next-auth route (`consoleAuthResponse`, what
 * `src/app/console/api/auth/[...nextauth]/route.ts` serves) and its real tRPC endpoint: it keeps the
 * cookies they set and sends them back, from one client address (`X-Forwarded-For`, as the web
 * process's front server sets it). `auth` may be another module instance of the route: another
 * web process on the same database.
 */
export class ConsoleBrowser {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly address = "203.0.113.10",
    private readonly auth: AuthRoute = consoleAuthResponse,
  ) {}

  /** A copy of this browser's cookies in another browser (a stolen cookie). */
  copy(address = this.address): ConsoleBrowser {
    const other = new ConsoleBrowser(address, this.auth);
    for (const [name, value] of this.cookies) other.cookies.set(name, value);
    return other;
  }

  private headers(extra: Record<string, string> = {}): Headers {
    const headers = new Headers({ "x-forwarded-for": this.address, ...extra });
    if (this.cookies.size) headers.set("cookie", [...this.cookies].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; "));
    return headers;
  }

  private keep(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = decodeURIComponent(pair.slice(at + 1).trim());
      const expired = attributes.some((attribute) => {
        const [key, val] = attribute.trim().split("=");
        return (key.toLowerCase() === "max-age" && Number(val) <= 0) || (key.toLowerCase() === "expires" && new Date(val).getTime() <= Date.now());
      });
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  async authGet(path: string): Promise<Response> {
    const url = `${ORIGIN}${CONSOLE_AUTH_BASE_PATH}/${path}`;
    return this.keep(await this.auth(new Request(url, { headers: this.headers() }), path.split("?")[0].split("/")));
  }

  async authPost(path: string, form: Record<string, string>): Promise<Response> {
    const url = `${ORIGIN}${CONSOLE_AUTH_BASE_PATH}/${path}`;
    const request = new Request(url, {
      method: "POST",
      headers: this.headers({ "content-type": "application/x-www-form-urlencoded" }),
      body: new URLSearchParams(form).toString(),
    });
    return this.keep(await this.auth(request, path.split("/")));
  }

  private async csrfToken(): Promise<string> {
    return ((await (await this.authGet("csrf")).json()) as { csrfToken: string }).csrfToken;
  }

  /**
   * Signs in as next-auth's own client does (`signIn("credentials", {redirect: false})`): the error
   * code the sign-in page reads, or null when a session cookie was set.
   */
  async signIn(email: string, password: string): Promise<{ status: number; error: string | null }> {
    const csrfToken = await this.csrfToken();
    const response = await this.authPost("callback/credentials", { email, password, csrfToken, callbackUrl: `${ORIGIN}/console`, json: "true" });
    const { url } = (await response.json()) as { url: string };
    return { status: response.status, error: new URL(url).searchParams.get("error") };
  }

  /** Signs out as the console's button does (`signOut()`). */
  async signOut(): Promise<Response> {
    const csrfToken = await this.csrfToken();
    return this.authPost("signout", { csrfToken, callbackUrl: `${ORIGIN}/console/signin`, json: "true" });
  }

  /** next-auth's session read (what `useSession` polls): `{}` when there is none. */
  async session(): Promise<Record<string, unknown>> {
    return (await (await this.authGet("session")).json()) as Record<string, unknown>;
  }

  /** The console's tRPC `me` with this browser's cookies: 200 when signed in, 401 otherwise. */
  async me(): Promise<{ status: number; email?: string }> {
    const response = await consoleApi(new Request(`${ORIGIN}/console/api/trpc/me`, { headers: this.headers() }));
    const body = (await response.json()) as { result?: { data: { email: string } } };
    return { status: response.status, email: body.result?.data.email };
  }

  /** What the console's pages see (their layout calls `consoleUserOf(headers())`). */
  async pageUser() {
    return consoleUserOf(this.headers());
  }

  get hasSession(): boolean {
    return this.cookies.has("next-auth.session-token");
  }
}
