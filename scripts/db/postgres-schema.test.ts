// The PostgreSQL schema generator: the transform both ways, the committed file is current, migration names and plans.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GENERATED_HEADER, migrationFolders, migrationName, planMigrations, POSTGRES_MIGRATIONS, POSTGRES_SCHEMA, SQLITE_MIGRATIONS, SQLITE_SCHEMA, toPostgresSchema, toSqliteSchema } from "./postgres-schema";

const SQLITE = readFileSync(SQLITE_SCHEMA, "utf8");

describe("toPostgresSchema / toSqliteSchema", () => {
  it("changes only the provider, the client folder and the header; the inverse gives the SQLite schema back", () => {
    const pg = toPostgresSchema(SQLITE);
    expect(pg.startsWith(GENERATED_HEADER)).toBe(true);
    expect(pg).toMatch(/datasource db \{[^}]*provider = "postgresql"/);
    expect(pg).toMatch(/generator client \{[^}]*output\s*= "\.\.\/\.\.\/generated\/prisma-pg"/);
    expect(pg.match(/^model \w+/gm)).toEqual(SQLITE.match(/^model \w+/gm));
    expect(toSqliteSchema(pg)).toBe(SQLITE);
  });

  it("refuses a schema it cannot transform, and a PostgreSQL schema edited by hand", () => {
    expect(() => toPostgresSchema(SQLITE.replace('provider = "sqlite"', 'provider = "mysql"'))).toThrow(/provider = "sqlite"/);
    expect(() => toSqliteSchema(toPostgresSchema(SQLITE).slice(GENERATED_HEADER.length))).toThrow(/GENERATED header/);
  });

  it("the committed prisma/postgres/schema.prisma is current (else: npm run db:migration -- <name>)", () => {
    expect(readFileSync(POSTGRES_SCHEMA, "utf8"), "run `npm run db:migration -- <name>` after changing prisma/schema.prisma").toBe(toPostgresSchema(SQLITE));
    expect(migrationFolders(POSTGRES_MIGRATIONS)).toEqual(migrationFolders(SQLITE_MIGRATIONS));
  });
});

describe("migrationName", () => {
  it("is a UTC stamp and a snake-case name, placed after the newest existing folder", () => {
    const now = new Date("2026-11-24T10:11:12Z");
    expect(migrationName("Add experience pool!", now)).toBe("20261124101112_add_experience_pool");
    // existing folders stamped later than the clock (the first ones were): the new one still sorts last
    expect(migrationName("x", now, ["20261122000000_init", "20261201000000_trace_events"])).toBe("20261201000001_x");
    expect(() => migrationName("  --- ", now)).toThrow(/not a usable migration name/);
  });
});

describe("planMigrations", () => {
  const now = new Date("2027-01-01T00:00:00Z");
  it("a schema change makes one folder for both dialects; no change makes none", () => {
    expect(planMigrations({ name: "add_x", sqliteSql: "CREATE TABLE x;", postgresSql: "CREATE TABLE x;", unmatched: [], now })).toEqual({
      newFolder: "20270101000000_add_x",
      postgres: { "20270101000000_add_x": "CREATE TABLE x;" },
    });
    expect(planMigrations({ sqliteSql: "", postgresSql: "  ", unmatched: [], now })).toEqual({ postgres: {} });
    expect(() => planMigrations({ sqliteSql: "CREATE TABLE x;", postgresSql: "CREATE TABLE x;", unmatched: [], now })).toThrow(/give the migration a name/);
  });

  it("SQLite migrations written by hand get PostgreSQL counterparts of the same names, the change in the last", () => {
    expect(planMigrations({ name: "ignored", sqliteSql: "", postgresSql: "CREATE TABLE y;", unmatched: ["20270101000000_a", "20270102000000_b"], now })).toEqual({
      postgres: { "20270101000000_a": expect.stringMatching(/^-- No statements: this change is in 20270102000000_b/), "20270102000000_b": "CREATE TABLE y;" },
    });
  });
});
