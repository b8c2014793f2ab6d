// The types of eslint/sinks.js, which stays plain JavaScript so that eslint.config.js can load it.
import type { Linter } from "eslint";

export declare const sinkWriters: { module: string; area: string; label: string }[];
export declare const reactionsFolder: string;
export declare const sinkFiles: string[];
export declare const sinkIgnores: string[];
export declare function resolveImport(file: string, source: string): string | null;
export declare function sinksBlock(): Linter.Config;
