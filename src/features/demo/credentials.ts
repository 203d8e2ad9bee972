import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

/**
 * The demo partner `npm start` seeds (src/cli/demo-seed.ts) and keeps in `DATA_DIR/demo.json`: the
 * page acts as that partner. Absent (SEED_DEMO=0, or a deployment started another way): the page
 * says so instead of inventing a partner.
 */
const DemoCredentialsFile = z.object({
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  audience: z.string().min(1),
  owner_slug: z.string().min(1),
  source: z.string().min(1),
  property_external_id: z.string().min(1),
  unit_external_ids: z.array(z.string()).min(1),
  guarantee_property_external_id: z.string().optional(),
  guarantee_unit_external_id: z.string().optional(),
});

export type DemoPartner = z.infer<typeof DemoCredentialsFile>;

export function readDemoPartner(dataDir: string): DemoPartner | undefined {
  const file = path.join(dataDir, "demo.json");
  if (!fs.existsSync(file)) return undefined;
  const parsed = DemoCredentialsFile.safeParse(JSON.parse(fs.readFileSync(file, "utf8")));
  return parsed.success ? parsed.data : undefined;
}
