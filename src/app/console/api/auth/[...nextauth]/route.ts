import { consoleAuthResponse } from "@/features/console/auth-route";

export const dynamic = "force-dynamic";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

async function handler(req: Request, context: RouteContext): Promise<Response> {
  return consoleAuthResponse(req, (await context.params).nextauth);
}

export { handler as GET, handler as POST };
