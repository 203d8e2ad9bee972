import { readFile } from "node:fs/promises";
import path from "node:path";

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

/** Swagger UI's files, read from the installed package (no copy in the repository, no CDN). */
export async function GET(_req: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  const { file } = await params;
  if (file === "docs-init.js") return new Response(INIT, { headers: { "Content-Type": "text/javascript; charset=utf-8" } });
  const type = ASSETS[file];
  if (!type) return Response.json({ status_code: 404, error: "Not found" }, { status: 404 });
  const body = await readFile(path.join(process.cwd(), "node_modules", "swagger-ui-dist", file));
  return new Response(body, { headers: { "Content-Type": type, "Cache-Control": "public, max-age=86400" } });
}
