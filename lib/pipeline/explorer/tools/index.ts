// The exploration tools in the order the model is shown them (the ending tools, finish and cannot_answer, come from finish.ts).
import type { ExplorerTool } from "../tool-env";
import { describeEntity } from "./describe-entity";
import { executeSparql } from "./execute-sparql";
import { propertyValues } from "./property-values";
import { searchEntities } from "./search-entities";
import { searchSchema } from "./search-schema";
import { searchValues } from "./search-values";

export const EXPLORATION_TOOLS: readonly ExplorerTool<unknown>[] = [searchEntities, searchValues, searchSchema, describeEntity, propertyValues, executeSparql] as unknown as ExplorerTool<unknown>[];
