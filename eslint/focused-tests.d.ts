// The types of eslint/focused-tests.js, which stays plain JavaScript so that eslint.config.js can load it.
import type { Linter } from "eslint";

export declare const focusedTestFiles: string[];
export declare const focusedTestSelectors: string[];
export declare function focusedTestsBlock(): Linter.Config;
