// The types of eslint/clock-in-render.js, which stays plain JavaScript so that eslint.config.js can load it.
import type { Linter } from "eslint";

export declare const renderFiles: string[];
export declare const renderIgnores: string[];
export declare const clockSelectors: { selector: string; message: string }[];
export declare function clockInRenderBlock(): Linter.Config;
