import { z } from "zod";

/** An HTTPS origin (scheme, host, optional port), the unit of `frame-ancestors`. */
export const httpsOrigin = z
  .string()
  .max(255)
  .refine((value) => toOrigin(value) !== undefined, { message: "must be an HTTPS origin such as https://www.example.com" })
  .transform((value) => toOrigin(value) as string);

export function toOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== "https:" || url.username || url.password || url.search || url.hash) return undefined;
    if (url.pathname !== "/" || /\/.+/.test(value.replace(/^https:\/\//i, ""))) return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}
