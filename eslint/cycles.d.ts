// The types of eslint/cycles.js, which stays plain JavaScript so that eslint.config.js can load it as is.
import type { Linter, Rule } from "eslint";

export declare const cycleFiles: string[];
export declare const noValueCycleRule: Rule.RuleModule;
export declare function importCycleBlock(): Linter.Config;
