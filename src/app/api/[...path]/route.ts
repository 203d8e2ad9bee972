import { handlePartnerApi } from "@/composition/gateways";

export const dynamic = "force-dynamic";

export const GET = handlePartnerApi;
export const POST = handlePartnerApi;
export const PUT = handlePartnerApi;
export const PATCH = handlePartnerApi;
export const DELETE = handlePartnerApi;
export const HEAD = handlePartnerApi;
