import NextAuth from "next-auth";
import { authOptions } from "@/features/console/auth-options";

export const dynamic = "force-dynamic";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

async function handler(req: Request, context: RouteContext): Promise<Response> {
  return NextAuth(authOptions())(req, { params: await context.params });
}

export { handler as GET, handler as POST };
