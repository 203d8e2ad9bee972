// Every table of every feature, for drizzle-kit (the migrations in drizzle/ are generated from it).
export * from "../features/auth/tables";
export * from "../features/console/users.table";
export * from "../features/enrollment/applications/applications.table";
export * from "../features/enrollment/frame-origins.table";
export * from "../features/enrollment/underwriting/rules.table";
export * from "../features/ingestion/tables";
export * from "../features/move-outs/tables";
export * from "../features/owners/tables";
export * from "../features/payments/tables";
export * from "../features/policies/documents/policy-documents.table";
export * from "../features/policies/policies.table";
export * from "../features/prospects/sources.table";
export * from "../features/prospects/tables";
export * from "../features/roster/tables";
export * from "../features/webhooks/providers.table";
export * from "../features/webhooks/tables";
