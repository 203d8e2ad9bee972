import fs from "node:fs";
import path from "node:path";

/**
 * Whether the Next.js production build (`.next`) is missing or older than the sources it is built
 * from: `npm start` rebuilds then, and the production-install check (scripts/check-production-install.ts)
 * builds before copying it.
 */
export function needsBuild(root: string = process.cwd()): boolean {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!fs.existsSync(buildId)) return true;
  const built = fs.statSync(buildId).mtimeMs;
  const newest = (target: string): number => {
    const stat = fs.statSync(target);
    if (!stat.isDirectory()) return stat.mtimeMs;
    return Math.max(stat.mtimeMs, ...fs.readdirSync(target).map((name) => newest(path.join(target, name))));
  };
  return ["src", "public", "next.config.ts", "package.json", "package-lock.json"]
    .map((target) => path.join(root, target))
    .some((target) => fs.existsSync(target) && newest(target) > built);
}
