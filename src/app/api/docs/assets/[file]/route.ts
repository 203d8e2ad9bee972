import { readFile } from "node:fs/promises";
import path from "node:path";
import { pageSecurityHeaders } from "@/server/http/security-headers";

export const dynamic = "force-dynamic";

const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
};

const INIT = `window.ui = SwaggerUIBundle({
  url: "/api/openapi.json",
  dom_id: "#reference",
  deepLinking: true,
  validatorUrl: null,
  tryItOutEnabled: false,
  defaultModelsExpandDepth: 0,
});`;

/** Swagger UI's files, read from the installed package (no copy in the repository, no CDN); the docs' headers (decisions §15). */
export async function GET(_req: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  const { file } = await params;
  const headers = pageSecurityHeaders();
  if (file === "docs-init.js") return new Response(INIT, { headers: { ...headers, "Content-Type": "text/javascript; charset=utf-8" } });
  const type = ASSETS[file];
  if (!type) return Response.json({ status_code: 404, error: "Not found" }, { status: 404, headers });
  const body = await readFile(path.join(process.cwd(), "node_modules", "swagger-ui-dist", file));
  return new Response(body, { headers: { ...headers, "Content-Type": type, "Cache-Control": "public, max-age=86400" } });
}
