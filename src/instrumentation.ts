/** Next.js start hook: migrate and start the inline worker once, in the Node runtime only. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { bootWebProcess } = await import("./server/boot");
  const { FEATURE_TASKS } = await import("./composition/tasks");
  await bootWebProcess({ tasks: FEATURE_TASKS });
}
