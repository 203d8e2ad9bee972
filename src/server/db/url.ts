import postgres from "postgres";

/**
 * A database URL as postgres.js takes it. libpq (and node-postgres, graphile-worker's driver) reach a
 * Unix socket with a `host` query parameter naming its directory
 * (`postgres://user:pass@localhost:5432/db?host=/run/postgresql`); postgres.js would instead send
 * `host` to the server as a setting, so the parameter becomes its `path` option here.
 */
export function postgresTarget(url: string): { url: string; path?: string } {
  const parsed = new URL(url);
  const directory = parsed.searchParams.get("host");
  if (!directory?.startsWith("/")) return { url };
  parsed.searchParams.delete("host");
  return { url: parsed.toString(), path: `${directory}/.s.PGSQL.${parsed.port || "5432"}` };
}

/** `postgres(url, options)`, understanding a socket URL (see `postgresTarget`). */
export function connectPostgres(url: string, options: postgres.Options<Record<string, never>> = {}): postgres.Sql {
  const target = postgresTarget(url);
  return postgres(target.url, target.path ? { ...options, path: target.path } : options);
}
