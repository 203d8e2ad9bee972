import { afterEach, describe, expect, it } from "vitest";
import { resetConfig } from "../../server/config";
import { getDb } from "../../server/db/client";
import { AppError } from "../../server/errors";
import { addFrameOrigin } from "./frame-origins";
import { frameOrigins } from "./frame-origins.table";

const storedOrigins = async () => (await (await getDb()).select().from(frameOrigins)).map((row) => row.origin).sort();

describe("addFrameOrigin (decisions §4 frame-origin add, §10 local origins in staging)", () => {
  afterEach(() => {
    process.env.APP_ENV = "staging";
    resetConfig();
  });

  it("stores local HTTP origins in staging, once however often they are added", async () => {
    const db = await getDb();
    expect(await addFrameOrigin(db, "http://localhost:4123")).toEqual({ origin: "http://localhost:4123" });
    expect(await addFrameOrigin(db, "http://127.0.0.1:4123/")).toEqual({ origin: "http://127.0.0.1:4123" });
    await addFrameOrigin(db, "http://LOCALHOST:4123");
    expect((await storedOrigins()).filter((origin) => origin.endsWith(":4123"))).toEqual(["http://127.0.0.1:4123", "http://localhost:4123"]);
  });

  it("refuses local HTTP origins in production and stores nothing, while HTTPS origins still pass", async () => {
    process.env.APP_ENV = "production";
    resetConfig();
    const db = await getDb();
    const refused = await addFrameOrigin(db, "http://localhost:4555").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).kind).toBe("invalid");
    expect((refused as AppError).fields).toEqual({ origin: ["Not an HTTPS origin: http://localhost:4555"] });
    await expect(addFrameOrigin(db, "http://127.0.0.1:4555")).rejects.toBeInstanceOf(AppError);
    expect(await addFrameOrigin(db, "https://portal.example.com:4555")).toEqual({ origin: "https://portal.example.com:4555" });
    expect((await storedOrigins()).filter((origin) => origin.endsWith(":4555"))).toEqual(["https://portal.example.com:4555"]);
  });
});
