// The KG's own schema (hierarchies, domains/ranges, inverses, enumerations), read once per KG.
export { KgSchema, type SchemaFacts } from "./kg-schema";
export { DEFAULT_SCHEMA_LIMITS, readKgSchema, type SchemaLimits, type SchemaSelect } from "./read-schema";
