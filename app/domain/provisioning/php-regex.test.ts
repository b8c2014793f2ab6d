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

describe("phpRegex: delimiters and modifiers", () => {
  it("reads any delimiter PHP takes, bracket pairs too", () => {
    expect(matches("/^a$/", "a")).toBe(true);
    expect(matches("#^a/b$#", "a/b")).toBe(true);
    expect(matches("~^a$~", "a")).toBe(true);
    expect(matches("{^a{2}$}", "aa")).toBe(true);
    expect(matches("(^(a)$)", "a")).toBe(true);
    expect(matches("  /^a$/", "a")).toBe(true);
  });

  it("takes an escaped delimiter as itself", () => {
    expect(matches("/^a\\/b$/", "a/b")).toBe(true);
    expect(matches("#^a\\#b$#", "a#b")).toBe(true);
    expect(matches("#^a\\#b$#u", "a#b")).toBe(true);
  });

  it("calls broken what PHP refuses", () => {
    expect(reason("^a$")).toBe("broken");
    expect(reason("a^a$a")).toBe("broken");
    expect(reason("\\^a$\\")).toBe("broken");
    expect(reason("/^(true")).toBe("broken");
    expect(reason("/a/k")).toBe("broken");
    expect(reason("/a/e")).toBe("broken");
    expect(reason("")).toBe("broken");
    expect(reason("/(a/")).toBe("broken");
    expect(reason("/a)/")).toBe("broken");
    expect(reason("/[a/")).toBe("broken");
    expect(reason("/*a/")).toBe("broken");
    expect(reason("/a\\/")).toBe("broken");
  });

  it("leaves to PHP the modifiers it cannot carry over", () => {
    expect(reason("/a+/U")).toBe("unsupported");
    expect(reason("/(?<n>a)(?<n>b)/J")).toBe("unsupported");
  });

  it("applies i, s, m, x, D and A", () => {
    expect(matches("/^abc$/i", "ABC")).toBe(true);
    expect(matches("/^a.b$/", "a\nb")).toBe(false);
    expect(matches("/^a.b$/s", "a\nb")).toBe(true);
    expect(matches("/^b$/", "a\nb")).toBe(false);
    expect(matches("/^b$/m", "a\nb")).toBe(true);
    expect(matches("/^a$/m", "a\nb")).toBe(true);
    // Multiline "^" does not match after a newline that ends the subject.
    expect(matches("/^$/m", "a\n")).toBe(false);
    expect(matches("/^ a  b # letters\n c $/x", "abc")).toBe(true);
    expect(matches("/^[ ]$/x", " ")).toBe(true);
    expect(matches("/^a\\ b$/x", "a b")).toBe(true);
    expect(matches("/b/A", "ab")).toBe(false);
    expect(matches("/a/A", "ab")).toBe(true);
  });

  it("matches $ before a final newline unless D says otherwise, as PCRE does", () => {
    expect(matches("/^a$/", "a\n")).toBe(true);
    expect(matches("/^a$/D", "a\n")).toBe(false);
    expect(matches("/^a\\z/", "a\n")).toBe(false);
    expect(matches("/^a\\Z/", "a\n")).toBe(true);
    expect(matches("/\\Aa/", "ba")).toBe(false);
  });
});

describe("phpRegex: what the eggs write", () => {
  it("checks the common egg patterns", () => {
    const jar = "/^([\\w\\d._-]+)(\\.jar)$/";
    expect(matches(jar, "paper-1.20.4.jar")).toBe(true);
    expect(matches(jar, "server jar.jar")).toBe(false);
    const version = "/^(latest|[a-zA-Z0-9_\\.-]{3,})$/";
    expect(matches(version, "latest")).toBe(true);
    expect(matches(version, "1.2")).toBe(true);
    expect(matches(version, "1.")).toBe(false);
    expect(matches("/^[0-9]+(\\.[0-9]+)*$/", "1.20.4")).toBe(true);
    expect(matches("/^[0-9]+(\\.[0-9]+)*$/", "1..2")).toBe(false);
    expect(matches("/^(?:\\d{1,3}\\.){3}\\d{1,3}$/", "192.168.1.10")).toBe(true);
    expect(matches("/^[a-z]+$/", "abc1")).toBe(false);
    expect(matches("/jar/", "my.jar.file")).toBe(true);
  });

  it("keeps PCRE's classes: a leading ], a - after a set, POSIX names", () => {
    expect(matches("/^[]a]+$/", "]a")).toBe(true);
    expect(matches("/^[\\w-z]$/", "-")).toBe(true);
    expect(matches("/^[\\w-z]$/", "`")).toBe(false);
    expect(matches("/^[a-]$/", "-")).toBe(true);
    expect(matches("/^[^-a]$/", "b")).toBe(true);
    expect(matches("/^[[:alpha:][:digit:]]+$/", "ab12")).toBe(true);
    expect(matches("/^[[:alpha:]]+$/", "ab_")).toBe(false);
    expect(matches("/^[[(]$/", "[")).toBe(true);
    expect(reason("/^[[:^alpha:]]$/")).toBe("unsupported");
  });

  it("reads PCRE's six white space characters without /u", () => {
    expect(matches("/^\\s$/", "\u000b")).toBe(true);
    expect(matches("/^\\s$/", "\u00a0")).toBe(false);
    expect(matches("/^\\S+$/", "a\u00a0b")).toBe(true);
    expect(matches("/^[\\s]$/", "\t")).toBe(true);
    expect(reason("/^[\\S]$/")).toBe("unsupported");
  });

  it("reads escapes: \\x, \\x{}, octal, \\Q…\\E, \\e", () => {
    expect(matches("/^\\x41\\x{42}$/", "AB")).toBe(true);
    expect(matches("/^\\101$/", "A")).toBe("unsupported");
    // "\0" takes two more octal digits at most: "\0101" is a backspace, then "1".
    expect(matches("/^\\041$/", "!")).toBe(true);
    expect(matches("/^\\0101$/", "\b1")).toBe(true);
    expect(matches("/^\\Q.*\\E$/", ".*")).toBe(true);
    expect(matches("/^\\Q.*\\E$/", "ab")).toBe(false);
    expect(matches("/^[\\Q]\\E]$/", "]")).toBe(true);
    expect(matches("/^\\e$/", "\u001b")).toBe(true);
    expect(matches("/^\\.$/", ".")).toBe(true);
    expect(matches("/^a{,3}$/", "a")).toBe("unsupported");
    expect(matches("/^a{x}$/", "a{x}")).toBe(true);
    expect(matches("/^a}$/", "a}")).toBe(true);
    expect(matches("/^a]$/", "a]")).toBe(true);
  });

  it("reads named groups in PHP's spellings", () => {
    expect(matches("/^(?P<major>\\d+)\\.(?<minor>\\d+)\\.(?'patch'\\d+)$/", "1.2.3")).toBe(true);
    expect(matches("/^(?#a comment)a$/", "a")).toBe(true);
  });

  it("leaves PCRE's own constructions to the panel", () => {
    for (const pattern of [
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
    ])
      expect(reason(pattern), pattern).toBe("unsupported");
  });
});

describe("phpRegex: bytes and code points", () => {
  it("works on bytes without /u, as PCRE does", () => {
    expect(matches("/^.$/", "é")).toBe(false);
    expect(matches("/^..$/", "é")).toBe(true);
    expect(matches("/^.{3}$/", "abc")).toBe(true);
    expect(matches("/^é$/", "é")).toBe(true);
    expect(matches("/^[é]$/", "é")).toBe(false);
    expect(matches("/^[é]+$/", "é")).toBe(true);
    expect(matches("/^\\w+$/", "café")).toBe(false);
  });

  it("works on code points with /u, with Unicode letters and digits", () => {
    expect(matches("/^.$/u", "é")).toBe(true);
    expect(matches("/^.$/u", "😀")).toBe(true);
    expect(matches("/^[é]$/u", "é")).toBe(true);
    expect(matches("/^\\w+$/u", "café")).toBe(true);
    expect(matches("/^\\w+$/u", "خادم_1")).toBe(true);
    expect(matches("/^\\d+$/u", "٣")).toBe(true);
    expect(matches("/^\\p{L}+$/u", "Serveur")).toBe(true);
    expect(matches("/^\\p{Lu}$/u", "a")).toBe(false);
    expect(matches("/^\\PL$/u", "1")).toBe(true);
    expect(matches("/^\\x{1F600}$/u", "😀")).toBe(true);
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
    for (const pattern of [
      "/^(a+)+$/",
      "/^(a*)*$/",
      "/^(\\w+\\s?)*$/",
      "/^(a|aa)+$/",
      "/^((a+))+$/",
      "/^(a+a)*$/",
      "/^(x(a+)*)*$/",
    ])
      expect(reason(pattern), pattern).toBe("unsafe");
  });

  it("runs a repetition whose passes a character tells apart", () => {
    expect(reason("/^[0-9]+(\\.[0-9]+)*$/")).toBe("ok");
    expect(reason("/^(\\d+,)+$/")).toBe("ok");
    expect(reason("/^(ab)*$/")).toBe("ok");
    expect(reason("/^(?:\\d{1,3}\\.){3}\\d{1,3}$/")).toBe("ok");
  });

  it("answers quickly where a naive engine would not", () => {
    const started = performance.now();
    expect(matches("/^[0-9]+(\\.[0-9]+)*$/", `${"1.".repeat(120)}x`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
