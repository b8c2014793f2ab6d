import { randomInt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { EGG_RULE_MESSAGES } from "~/domain/provisioning/egg-variables";
import {
  drawPanelPassword,
  PANEL_PASSWORD_ALPHABET,
  PANEL_PASSWORD_LENGTH,
  VARIABLE_RULE_ERRORS,
  variableRuleError,
} from "./server-actions";

describe("a new panel password", () => {
  it("is letters and digits, at least 16 of them", () => {
    expect(PANEL_PASSWORD_LENGTH).toBeGreaterThanOrEqual(16);
    for (let round = 0; round < 50; round++)
      expect(drawPanelPassword(randomInt)).toMatch(
        new RegExp(`^[A-Za-z0-9]{${PANEL_PASSWORD_LENGTH}}$`),
      );
  });

  it("takes each character at the index drawn, the alphabet's length as the bound", () => {
    const bounds: number[] = [];
    let next = 0;
    const password = drawPanelPassword((bound) => {
      bounds.push(bound);
      return next++ % bound;
    });
    expect(new Set(bounds)).toEqual(new Set([PANEL_PASSWORD_ALPHABET.length]));
    expect(password).toBe(PANEL_PASSWORD_ALPHABET.slice(0, PANEL_PASSWORD_LENGTH));
  });
});

describe("a variable's value refused by its rules", () => {
  it("has a customer's message for every rule message the egg checks give", () => {
    for (const message of Object.values(EGG_RULE_MESSAGES)) {
      const rule = message.slice(message.lastIndexOf(".") + 1);
      expect(variableRuleError(message)).toBe(`services.server.variableRule.${rule}`);
    }
    expect(Object.keys(VARIABLE_RULE_ERRORS).sort()).toEqual(Object.keys(EGG_RULE_MESSAGES).sort());
  });
});
