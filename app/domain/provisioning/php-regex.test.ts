import { describe, expect, it } from "vitest";
import { phpRegex } from "./php-regex";

/** Whether preg_match would find `pattern` in `value`, or why it cannot be told here. */
function matches(pattern: string, value: string): boolean | string {
  const regex = phpRegex(pattern);
  return regex.ok ? regex.matches(value) : regex.reason;
}

function reason(pattern: string): string {
  const regex = phpRegex(pattern);
  return regex.ok ? "ok" : regex.reason;
}

/** A pattern, a value, and what `matches` says of them. */
type Case = [pattern: string, value: string, answer: boolean | string];

/** Each case checked on its own, the failure naming the pattern and the value. */
function expectAnswers(cases: Case[]) {
  for (const [pattern, value, answer] of cases)
    expect(matches(pattern, value), `${pattern} on ${JSON.stringify(value)}`).toBe(answer);
}

/** Each pattern's `reason`, the failure naming the pattern. */
function expectReasons(answer: string, patterns: string[]) {
  for (const pattern of patterns) expect(reason(pattern), pattern).toBe(answer);
}

describe("phpRegex: delimiters and modifiers", () => {
  it("reads any delimiter PHP takes, bracket pairs too", () => {
    expectAnswers([
      ["/^a$/", "a", true],
      ["#^a/b$#", "a/b", true],
      ["~^a$~", "a", true],
      ["{^a{2}$}", "aa", true],
      ["(^(a)$)", "a", true],
      ["  /^a$/", "a", true],
    ]);
  });

  it("takes an escaped delimiter as itself", () => {
    expectAnswers([
      ["/^a\\/b$/", "a/b", true],
      ["#^a\\#b$#", "a#b", true],
      ["#^a\\#b$#u", "a#b", true],
    ]);
  });

  it("calls broken what PHP refuses", () => {
    expectReasons("broken", [
      "^a$",
      "a^a$a",
      "\\^a$\\",
      "/^(true",
      "/a/k",
      "/a/e",
      "",
      "/(a/",
      "/a)/",
      "/[a/",
      "/*a/",
      "/a\\/",
    ]);
  });

  it("leaves to PHP the modifiers it cannot carry over", () => {
    expectReasons("unsupported", ["/a+/U", "/(?<n>a)(?<n>b)/J"]);
  });

  it("applies i, s, m, x, D and A", () => {
    expectAnswers([
      ["/^abc$/i", "ABC", true],
      ["/^a.b$/", "a\nb", false],
      ["/^a.b$/s", "a\nb", true],
      ["/^b$/", "a\nb", false],
      ["/^b$/m", "a\nb", true],
      ["/^a$/m", "a\nb", true],
      // Multiline "^" does not match after a newline that ends the subject.
      ["/^$/m", "a\n", false],
      ["/^ a  b # letters\n c $/x", "abc", true],
      ["/^[ ]$/x", " ", true],
      ["/^a\\ b$/x", "a b", true],
      ["/b/A", "ab", false],
      ["/a/A", "ab", true],
    ]);
  });

  it("matches $ before a final newline unless D says otherwise, as PCRE does", () => {
    expectAnswers([
      ["/^a$/", "a\n", true],
      ["/^a$/D", "a\n", false],
      ["/^a\\z/", "a\n", false],
      ["/^a\\Z/", "a\n", true],
      ["/\\Aa/", "ba", false],
    ]);
  });
});

describe("phpRegex: what the eggs write", () => {
  it("checks the common egg patterns", () => {
    const jar = "/^([\\w\\d._-]+)(\\.jar)$/";
    const version = "/^(latest|[a-zA-Z0-9_\\.-]{3,})$/";
    expectAnswers([
      [jar, "paper-1.20.4.jar", true],
      [jar, "server jar.jar", false],
      [version, "latest", true],
      [version, "1.2", true],
      [version, "1.", false],
      ["/^[0-9]+(\\.[0-9]+)*$/", "1.20.4", true],
      ["/^[0-9]+(\\.[0-9]+)*$/", "1..2", false],
      ["/^(?:\\d{1,3}\\.){3}\\d{1,3}$/", "192.168.1.10", true],
      ["/^[a-z]+$/", "abc1", false],
      ["/jar/", "my.jar.file", true],
    ]);
  });

  it("keeps PCRE's classes: a leading ], a - after a set, POSIX names", () => {
    expectAnswers([
      ["/^[]a]+$/", "]a", true],
      ["/^[\\w-z]$/", "-", true],
      ["/^[\\w-z]$/", "`", false],
      ["/^[a-]$/", "-", true],
      ["/^[^-a]$/", "b", true],
      ["/^[[:alpha:][:digit:]]+$/", "ab12", true],
      ["/^[[:alpha:]]+$/", "ab_", false],
      ["/^[[(]$/", "[", true],
    ]);
    expect(reason("/^[[:^alpha:]]$/")).toBe("unsupported");
  });

  it("reads PCRE's six white space characters without /u", () => {
    expectAnswers([
      ["/^\\s$/", "\u000b", true],
      ["/^\\s$/", "\u00a0", false],
      ["/^\\S+$/", "a\u00a0b", true],
      ["/^[\\s]$/", "\t", true],
    ]);
    expect(reason("/^[\\S]$/")).toBe("unsupported");
  });

  it("reads escapes: \\x, \\x{}, octal, \\Q…\\E, \\e", () => {
    expectAnswers([
      ["/^\\x41\\x{42}$/", "AB", true],
      ["/^\\101$/", "A", "unsupported"],
      // "\0" takes two more octal digits at most: "\0101" is a backspace, then "1".
      ["/^\\041$/", "!", true],
      ["/^\\0101$/", "\b1", true],
      ["/^\\Q.*\\E$/", ".*", true],
      ["/^\\Q.*\\E$/", "ab", false],
      ["/^[\\Q]\\E]$/", "]", true],
      ["/^\\e$/", "\u001b", true],
      ["/^\\.$/", ".", true],
      ["/^a{,3}$/", "a", "unsupported"],
      ["/^a{x}$/", "a{x}", true],
      ["/^a}$/", "a}", true],
      ["/^a]$/", "a]", true],
    ]);
  });

  it("reads named groups in PHP's spellings", () => {
    expectAnswers([
      ["/^(?P<major>\\d+)\\.(?<minor>\\d+)\\.(?'patch'\\d+)$/", "1.2.3", true],
      ["/^(?#a comment)a$/", "a", true],
    ]);
  });

  it("leaves PCRE's own constructions to the panel", () => {
    expectReasons("unsupported", [
      "/^(?>a+)$/",
      "/^a++$/",
      "/^a*+$/",
      "/^(?i)a$/",
      "/^(?|a|b)$/",
      "/^(a)\\1$/",
      "/^(?P<x>a)(?P=x)$/",
      "/^\\h$/",
      "/^\\R$/",
      "/^a\\Kb$/",
      "/^(*UTF8)a$/",
      "/^\\pL$/",
      "/^\\w+\\b$/u",
      "/^\\i$/",
    ]);
  });
});

describe("phpRegex: bytes and code points", () => {
  it("works on bytes without /u, as PCRE does", () => {
    expectAnswers([
      ["/^.$/", "é", false],
      ["/^..$/", "é", true],
      ["/^.{3}$/", "abc", true],
      ["/^é$/", "é", true],
      ["/^[é]$/", "é", false],
      ["/^[é]+$/", "é", true],
      ["/^\\w+$/", "café", false],
    ]);
  });

  it("works on code points with /u, with Unicode letters and digits", () => {
    expectAnswers([
      ["/^.$/u", "é", true],
      ["/^.$/u", "😀", true],
      ["/^[é]$/u", "é", true],
      ["/^\\w+$/u", "café", true],
      ["/^\\w+$/u", "خادم_1", true],
      ["/^\\d+$/u", "٣", true],
      ["/^\\p{L}+$/u", "Serveur", true],
      ["/^\\p{Lu}$/u", "a", false],
      ["/^\\PL$/u", "1", true],
      ["/^\\x{1F600}$/u", "😀", true],
    ]);
    expect(reason("/^\\p{Greek}$/u")).toBe("unsupported");
  });

  it("refuses a code point above a byte without /u, as PCRE does", () => {
    expect(reason("/^\\x{100}$/")).toBe("broken");
  });

  it("leaves to PHP case folding beyond ASCII without /u", () => {
    expect(reason("/^é$/i")).toBe("unsupported");
    expect(matches("/^é$/iu", "É")).toBe(true);
  });
});

describe("phpRegex: backtracking", () => {
  it("never runs a nested unbounded repetition that can split a value many ways", () => {
    expectReasons("unsafe", [
      "/^(a+)+$/",
      "/^(a*)*$/",
      "/^(\\w+\\s?)*$/",
      "/^(a|aa)+$/",
      "/^((a+))+$/",
      "/^(a+a)*$/",
      "/^(x(a+)*)*$/",
    ]);
  });

  it("runs a repetition whose passes a character tells apart", () => {
    expectReasons("ok", [
      "/^[0-9]+(\\.[0-9]+)*$/",
      "/^(\\d+,)+$/",
      "/^(ab)*$/",
      "/^(?:\\d{1,3}\\.){3}\\d{1,3}$/",
    ]);
  });

  it("answers a long value it cannot match when a character tells the passes apart", () => {
    // Ten thousand passes: a translation that made the passes ambiguous (so that the engine tried
    // every way to split them) would not answer before the test's time limit.
    expect(matches("/^[0-9]+(\\.[0-9]+)*$/", `${"1.".repeat(10_000)}x`)).toBe(false);
  });
});
