import os from "node:os";
import { type ParseArgsConfig, parseArgs } from "node:util";
import type { AuditActor } from "../features/audit/audit";

/**
 * How the operator CLI reads its flags and names who ran it (decisions §4, §15; docs/decisions.md
 * "Hardening: the CLI, merged links, demo framing").
 */

/** A mistake in how a command was called: its usage is printed and the exit code is 2 (decisions §15). */
export class UsageError extends Error {}

export const USAGE_EXIT_CODE = 2;

type Options = NonNullable<ParseArgsConfig["options"]>;
export type Flags = Record<string, string | boolean | string[] | undefined>;

/**
 * The flags a command's usage line names, and those it requires (named outside `[…]`). The usage is
 * the one list of a command's flags: what it does not name, the command refuses.
 */
export function flagsOfUsage(usage: string): { known: Set<string>; required: string[] } {
  const names = (text: string) => [...text.matchAll(/(?:^|[\s[])--([a-z][a-z0-9-]*)/g)].map((match) => match[1]);
  const plain = usage.replace(/\([^)]*\)/g, " ");
  return { known: new Set(names(plain)), required: names(plain.replace(/\[[^\]]*\]/g, " ")) };
}

/**
 * The command's flags, or a UsageError naming what is wrong: a flag this command does not take
 * (unknown to the CLI or another command's), a stray argument, a missing or malformed value, a
 * required flag absent or empty. Checked before any database work.
 */
export function parseFlags(args: string[], usage: string, { options }: { options: Options }): Flags {
  const { known, required } = flagsOfUsage(usage);
  const { tokens } = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind === "option" && !known.has(token.name)) throw new UsageError(`Unknown flag ${token.rawName}`);
    if (token.kind === "positional") throw new UsageError(`Unexpected argument "${token.value}"`);
  }
  let values: Flags;
  try {
    values = parseArgs({ args, options, strict: true }).values as Flags;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS")) throw new UsageError((error as Error).message);
    throw error;
  }
  for (const name of required) {
    const value = values[name];
    if (value === undefined || value === "" || (Array.isArray(value) && value.length === 0)) throw new UsageError(`--${name} is required`);
  }
  return values;
}

/**
 * Who runs the CLI, for the audit log (`cli:<user>`): the operating system's name for the process's
 * user; where it has none (a container started with an arbitrary uid), `$USER` or `$LOGNAME`, else
 * `uid:<n>`.
 */
export function cliUser(): string {
  try {
    const name = os.userInfo().username;
    if (name) return name;
  } catch {
    // no passwd entry for this uid: fall through
  }
  return process.env.USER || process.env.LOGNAME || `uid:${process.getuid?.() ?? "unknown"}`;
}

export function cliActor(): AuditActor {
  return { cli: cliUser() };
}
