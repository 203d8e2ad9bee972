import { handleIngestApi } from "@/composition/gateways";

export const dynamic = "force-dynamic";

export const GET = handleIngestApi;
export const POST = handleIngestApi;
export const PUT = handleIngestApi;
export const PATCH = handleIngestApi;
export const DELETE = handleIngestApi;
