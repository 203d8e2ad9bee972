import { z } from "zod";

/**
 * The inputs of the console's frame-origin procedures, in a module without server imports: the
 * screen's form checks the very same schema in the browser (CONTRIBUTING.md, "A console form").
 * Whether the origin is one the specification allows stays the domain's check (`frameOriginOf`).
 */
export const frameOriginAddInput = z.object({ origin: z.string().max(300) });
export const frameOriginRemoveInput = z.object({ id: z.number().int().positive() });
