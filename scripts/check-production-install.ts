import assert from "node:assert/strict";
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { needsBuild } from "../src/cli/build-state";
import { connectPostgres } from "../src/server/db/url";

/**
 * `npm run test:install`: the Dockerfile's runtime stage, proven on this machine, where no base image
 * can be pulled (docs/decisions.md, "Runbook and packaging"). It reads the runtime stage's COPY and
 * `npm ci` lines from the Dockerfile itself, repeats them in a fresh folder against the current
 * build (built first when sources changed), then starts that install as production does: the web
 * process and a worker process on an external PostgreSQL (the embedded server, started apart),
 * and checks that it migrated, serves /healthz and /api/openapi.json, and that a client made by the
 * installed CLI exchanges its credentials for a token. Exits 1 on the first failed check.
 * `INSTALL_CHECK_PORT` (default 5310) is the web process's port; `INSTALL_CHECK_KEEP=1` keeps the folder.
 */
const root = process.cwd();
const port = Number(process.env.INSTALL_CHECK_PORT ?? 5310);
const began = Date.now();
const children: ChildProcess[] = [];

function step(message: string): void {
  process.stdout.write(`[${((Date.now() - began) / 1000).toFixed(1)} s] ${message}\n`);
}

type Stage = { copies: { from: string; to: string }[]; install: string[]; command: string[] };

/** A stage's `COPY [--from=build] <source…> <dest>` lines, its `npm ci` command and its `CMD`. */
function stageOf(dockerfile: string, name: string): Stage {
  const lines = dockerfile.replace(/\\\n\s*/g, " ").split("\n");
  const start = lines.findIndex((line) => new RegExp(`^FROM\\s+\\S+\\s+AS\\s+${name}\\s*$`, "i").test(line.trim()));
  assert.ok(start >= 0, `the Dockerfile has no \`FROM … AS ${name}\` stage`);
  const stage: Stage = { copies: [], install: [], command: [] };
  for (const line of lines.slice(start + 1)) {
    const words = line.trim().split(/\s+/);
    if (/^FROM$/i.test(words[0] ?? "")) break;
    if (/^COPY$/i.test(words[0] ?? "")) {
      const args = words.slice(1).filter((word) => !word.startsWith("--"));
      const fromBuild = words.some((word) => word === "--from=build");
      const to = args.pop() as string;
      // Without --from the source is the build context (the repository); with it, the build stage's /app.
      for (const source of args)
        stage.copies.push({ from: fromBuild ? source.replace(/^\/app\//, "") : source, to: args.length > 1 ? path.join(to, source) : to });
    }
    // Only the install itself: the image's other steps (cache clean, ownership) change nothing here.
    const install = line.trim().match(/^RUN\s+(npm ci\b[^&]*)/i);
    if (install) stage.install = (install[1] as string).trim().split(/\s+/);
    const command = line.trim().match(/^CMD\s+(\[.*\])$/i);
    if (command) stage.command = JSON.parse(command[1] as string) as string[];
  }
  assert.ok(stage.install.length > 0, `the ${name} stage runs no \`npm ci\``);
  return stage;
}

function start(name: string, command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): { child: ChildProcess; output: () => string } {
  const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  child.once("exit", (code, signal) => {
    if (!stopping) process.stderr.write(`${name} exited early (${code ?? signal}):\n${output}\n`);
  });
  return { child, output: () => output };
}

async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number, log: () => string = () => ""): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch {
      // not there yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what}: not within ${timeoutMs / 1000} s\n${log()}`);
}

/** A process's resident memory in MB, from /proc (Linux); `?` elsewhere. */
function residentMb(pid: number | undefined): string {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    return String(Math.round(Number(status.match(/VmRSS:\s+(\d+)/)?.[1]) / 1024));
  } catch {
    return "?";
  }
}

let stopping = false;
async function stopAll(): Promise<void> {
  stopping = true;
  // Web and worker first, the database last (in start order, reversed).
  for (const child of [...children].reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    await exited;
    clearTimeout(timer);
  }
}

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "pis-install-"));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pis-install-db-"));
try {
  const dockerfile = fs.readFileSync(path.join(root, "Dockerfile"), "utf8");
  const stage = stageOf(dockerfile, "runtime");
  assert.ok(stage.command.length > 0, 'the runtime stage has no `CMD ["…"]`');

  // npm ci refuses a lockfile that lacks another platform's optional packages ("Missing: … from lock
  // file", stack notes), and images are built for amd64 and arm64: both stages' installs are resolved
  // for both (resolved only, nothing downloaded).
  const lockOnly = fs.mkdtempSync(path.join(os.tmpdir(), "pis-install-lock-"));
  try {
    for (const file of ["package.json", "package-lock.json"]) fs.copyFileSync(path.join(root, file), path.join(lockOnly, file));
    // PATH and HOME only (no NODE_ENV: the deps stage installs the development dependencies too).
    const lockEnv: NodeJS.ProcessEnv = { ...process.env };
    for (const name of Object.keys(lockEnv)) if (name !== "PATH" && name !== "HOME") delete lockEnv[name];
    for (const install of [stageOf(dockerfile, "deps").install, stage.install]) {
      for (const cpu of ["x64", "arm64"]) {
        const args = [...install.slice(1), "--dry-run", "--os=linux", `--cpu=${cpu}`, "--libc=glibc"];
        const result = spawnSync(install[0] as string, args, {
          cwd: lockOnly,
          encoding: "utf8",
          env: lockEnv,
        });
        assert.equal(result.status, 0, `${install.join(" ")} for linux/${cpu}:\n${result.stderr}`);
        step(`resolves for linux/${cpu}: ${install.join(" ")}`);
      }
    }
  } finally {
    fs.rmSync(lockOnly, { recursive: true, force: true });
  }

  if (needsBuild(root)) {
    step("building the web app (the build stage: next build)");
    execFileSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    });
  }

  step(`copying the runtime stage's files into ${folder}`);
  for (const copy of stage.copies) {
    // The build stage removes .next/cache; a development server's output was never in the image.
    fs.cpSync(path.join(root, copy.from), path.join(folder, copy.to), {
      recursive: true,
      filter: (source) => !/[/\\]\.next[/\\](cache|dev)([/\\]|$)/.test(source),
    });
  }

  step(`installing: ${stage.install.join(" ")}`);
  const installBegan = Date.now();
  // A clean environment: nothing of this repository's own install or test settings leaks in.
  const baseEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME ?? os.homedir(), NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" };
  execFileSync(stage.install[0] as string, stage.install.slice(1), { cwd: folder, stdio: ["ignore", "inherit", "inherit"], env: baseEnv });
  step(`installed in ${((Date.now() - installBegan) / 1000).toFixed(1)} s`);
  for (const needed of ["next", "tsx", "graphile-worker", "postgres", "pg"]) {
    assert.ok(fs.existsSync(path.join(folder, "node_modules", needed, "package.json")), `${needed} is not installed`);
  }
  // (typescript is installed: a peer dependency of @trpc/server and @trpc/client.)
  for (const dev of ["vitest", "@biomejs/biome", "drizzle-kit", "dependency-cruiser", "@redocly/cli"]) {
    assert.ok(!fs.existsSync(path.join(folder, "node_modules", dev)), `${dev} (a development dependency) is installed`);
  }

  step("starting PostgreSQL apart (an external database for the install)");
  const database = start("PostgreSQL", process.execPath, ["--import", "tsx", "src/test/embedded-start.ts", dataDir], { cwd: root, env: process.env });
  await waitFor("PostgreSQL ready", () => database.output().includes('"ready":true'), 120_000, database.output);
  const databaseUrl = (JSON.parse(fs.readFileSync(path.join(dataDir, "postgres.json"), "utf8")) as { url: string }).url;

  const env: NodeJS.ProcessEnv = {
    ...baseEnv,
    APP_ENV: "production",
    DATABASE_URL: databaseUrl,
    MASTER_KEY: randomBytes(32).toString("base64"),
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    // Required in production (decisions §19); no server listens there and the check sends no renter message.
    SMTP_URL: "smtp://127.0.0.1:2525",
    MAIL_FROM: "Renters <no-reply@localhost>",
    // Production takes payment through Stripe with live keys (decisions §18); the check contacts Stripe never.
    PAYMENT_PROCESSOR: "stripe",
    STRIPE_SECRET_KEY: `sk_live_${"a1".repeat(12)}`,
    STRIPE_PUBLISHABLE_KEY: `pk_live_${"b2".repeat(12)}`,
    STRIPE_WEBHOOK_SECRET: `whsec_${"c3".repeat(16)}`,
    PORT: String(port),
    PUBLIC_BASE_URL: `http://localhost:${port}`,
    SKIP_BUILD: "1",
    WORKER: "off",
    LOG_LEVEL: "info",
  };
  const base = `http://127.0.0.1:${port}`;

  step("starting the web process (the image's CMD) and a worker process from the install");
  const web = start("web process", stage.command[0] as string, stage.command.slice(1), { cwd: folder, env });
  const worker = start("worker process", "node", ["--import", "tsx", "scripts/worker.ts"], { cwd: folder, env });
  await waitFor("GET /healthz answers 200", async () => (await fetch(`${base}/healthz`)).status === 200, 180_000, web.output);
  await waitFor("the worker process starts", () => worker.output().includes("worker started"), 120_000, worker.output);
  step("web process healthy, worker started");

  const sql = connectPostgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const journal = JSON.parse(fs.readFileSync(path.join(folder, "drizzle/meta/_journal.json"), "utf8")) as { entries: unknown[] };
    const [applied] = await sql<{ count: number }[]>`select count(*)::int as count from drizzle.__drizzle_migrations`;
    assert.equal(applied?.count, journal.entries.length, "every migration of drizzle/ is applied");
    const [jobs] = await sql<{ count: number }[]>`select count(*)::int as count from graphile_worker.migrations`;
    assert.ok((jobs?.count ?? 0) > 0, "graphile-worker's schema is installed");
    step(`migrated: ${applied?.count} migrations, graphile-worker revision ${jobs?.count}`);
  } finally {
    await sql.end({ timeout: 5 });
  }

  const openapi = await fetch(`${base}/api/openapi.json`);
  assert.equal(openapi.status, 200, "GET /api/openapi.json");
  const document = (await openapi.json()) as { openapi?: string; paths?: object };
  assert.match(document.openapi ?? "", /^3\./, "the OpenAPI document");
  assert.ok(Object.keys(document.paths ?? {}).length > 0, "the OpenAPI document lists the routes");
  step(`GET /api/openapi.json: OpenAPI ${document.openapi}, ${Object.keys(document.paths ?? {}).length} paths`);

  const created = JSON.parse(
    execFileSync("npm", ["run", "--silent", "admin", "--", "client", "create", "--name", "Install check"], { cwd: folder, env, encoding: "utf8" }),
  ) as { client_id: string; client_secret: string; audience: string };
  assert.equal(created.audience, "urn:pis:partner-api:production", "the CLI made a production client");
  const token = await fetch(`${base}/api/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "client_credentials", client_id: created.client_id, client_secret: created.client_secret, audience: created.audience }),
  });
  const tokenBody = (await token.json()) as { access_token?: string; token_type?: string };
  assert.equal(token.status, 200, `POST /api/token: ${JSON.stringify(tokenBody)}`);
  assert.ok(tokenBody.access_token, "an access token");
  step("client create (installed CLI) → POST /api/token: 200 with an access token");

  step(`resident memory: web process ${residentMb(web.child.pid)} MB, worker process ${residentMb(worker.child.pid)} MB`);
  await stopAll();
  step("production install: every check passed");
} catch (error) {
  process.stderr.write(`production install check FAILED: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await stopAll();
  if (process.env.INSTALL_CHECK_KEEP !== "1") fs.rmSync(folder, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
}
