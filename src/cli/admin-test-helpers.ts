import { vi } from "vitest";
import { runAdmin } from "./admin";

/** Runs `npm run admin -- …` in this process, capturing its one JSON object and its stderr. */
export async function admin(...argv: string[]): Promise<{ code: number; out: Record<string, unknown>; err: string }> {
  const { code, stdout, err } = await adminRaw(...argv);
  return { code, out: stdout ? JSON.parse(stdout) : {}, err };
}

/** `admin`, with standard output as written (a usage error must write nothing there). */
export async function adminRaw(...argv: string[]): Promise<{ code: number; stdout: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => out.push(String(chunk)) > 0);
  const stderr = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => err.push(String(chunk)) > 0);
  try {
    const code = await runAdmin(argv);
    return { code, stdout: out.join(""), err: err.join("") };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}
