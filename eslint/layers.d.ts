// The types of eslint/layers.js, which stays plain JavaScript so that eslint.config.js can load it as is.
import type { Linter } from "eslint";

export interface Layer {
  /** The first cell of the row's line in docs/architecture.md. */
  folder: string;
  files: string[];
  ignores?: string[];
  layer: string;
  may: "anything" | (string | { target: string; typesOnly: true })[];
  except?: string[];
  never?: string[];
  isolated?: boolean;
}

export declare const layers: readonly Layer[];
export declare const testFiles: string[];
export declare function mayImportText(row: Layer): string;
export declare function layerBlocks(): Linter.Config[];
