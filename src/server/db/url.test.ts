import { describe, expect, it } from "vitest";
import { postgresTarget } from "./url";

describe("postgresTarget", () => {
  it("turns libpq's host=/dir into postgres.js's socket path, keeping the rest of the URL", () => {
    expect(postgresTarget("postgres://pis:p%40ss@127.0.0.1:5555/pis?host=%2Fdata%2Fpg&sslmode=disable")).toEqual({
      url: "postgres://pis:p%40ss@127.0.0.1:5555/pis?sslmode=disable",
      path: "/data/pg/.s.PGSQL.5555",
    });
  });

  it("uses PostgreSQL's default port when the URL names none", () => {
    expect(postgresTarget("postgres://pis@localhost/pis?host=/run/postgresql").path).toBe("/run/postgresql/.s.PGSQL.5432");
  });

  it("leaves TCP URLs alone", () => {
    const url = "postgres://pis:secret@db.internal:5432/pis?sslmode=require";
    expect(postgresTarget(url)).toEqual({ url });
    expect(postgresTarget("postgres://pis@db/pis?host=db2")).toEqual({ url: "postgres://pis@db/pis?host=db2" });
  });
});
