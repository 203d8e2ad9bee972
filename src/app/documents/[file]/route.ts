import { documentResponse } from "@/features/policies/documents/serve";
import { getDb } from "@/server/db/client";

export const dynamic = "force-dynamic";

/** A policy's document archive, without credentials (decisions §11 Documents). */
export async function GET(request: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  return documentResponse(await getDb(), request, (await params).file);
}
