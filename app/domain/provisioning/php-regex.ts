/**
 * PHP's preg patterns ("/^[\w.-]+$/i", as a Laravel `regex:` rule writes them) read into JavaScript
 * regular expressions that accept the same strings, so an egg's rules can be checked before the panel
 * checks them. What cannot be carried over exactly is said, never guessed:
 *
 * - `broken`: PHP itself refuses the pattern (no closing delimiter, an unknown modifier, an unbalanced
 *   parenthesis). The panel then fails on every value, so this is the egg's fault, worth an error.
 * - `unsupported`: valid PCRE that JavaScript has no exact equivalent for (atomic groups, possessive or
 *   ungreedy quantifiers, inline flags, recursion, back references, \p without /u ...). Left to the panel.
 * - `unsafe`: a nested unbounded repetition ("(a+)+", "(a|b)*" ...) that can backtrack for ages in
 *   JavaScript, which has no backtracking limit like PCRE's. Left to the panel too: a pattern from the
 *   panel must never hang our process.
 *
 * PCRE without /u works on bytes, JavaScript on UTF-16 units: such a pattern's non-ASCII characters are
 * written as their UTF-8 bytes and the value is tested as its UTF-8 bytes, so "." still matches one byte of
 * "é" as it does in PHP. With /u both work on code points. Anchors and "." are written out in full
 * (PCRE's "$" also matches before a final newline, "." stops only at "\n"), so JavaScript's own `m` and `s`
 * flags are never used.
 */

export type PhpRegexFailure = "broken" | "unsupported" | "unsafe";

export type PhpRegex =
  | { ok: true; matches: (value: string) => boolean; source: string; flags: string }
  | { ok: false; reason: PhpRegexFailure };

/**
 * Longer values are not tested against an egg's pattern: below it, even a pattern that backtracks
 * polynomially ("\d+\d+\d+x") answers in milliseconds.
 */
export const PHP_REGEX_MAX_SUBJECT = 256;

/** PHP's modifiers: those we translate, those PHP knows but we do not carry over (then `unsupported`). */
const TRANSLATED_MODIFIERS = new Set(["i", "m", "s", "x", "u", "D", "A", "S", "X"]);
const UNTRANSLATED_MODIFIERS = new Set(["U", "J", "n", "r"]);
const BRACKET_DELIMITERS: Record<string, string> = { "(": ")", "[": "]", "{": "}", "<": ">" };

/** JavaScript's syntax characters, which an identity escape may name in every mode. */
const SYNTAX_CHARACTERS = new Set([..."^$\\.*+?()[]{}|/"]);
/** PCRE's white space without /u: HT, LF, VT, FF, CR and space (JavaScript's \s has many more). */
const PCRE_SPACE = "\\t\\n\\x0B\\f\\r ";
/** Unicode general categories, as \p{..} takes them in both engines. */
const GENERAL_CATEGORIES = new Set(
  "C Cc Cf Cn Co Cs L Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps S Sc Sk Sm So Z Zl Zp Zs".split(
    " ",
  ),
);
/** POSIX classes inside brackets, ASCII (without /u, where PCRE reads them so). */
const POSIX_CLASSES: Record<string, string> = {
  alpha: "a-zA-Z",
  digit: "0-9",
  alnum: "a-zA-Z0-9",
  upper: "A-Z",
  lower: "a-z",
  xdigit: "0-9A-Fa-f",
  space: PCRE_SPACE,
  blank: "\\t ",
  word: "\\w",
  punct: "!-\\/:-@\\[-`{-~",
};

class Refusal extends Error {
  constructor(readonly reason: PhpRegexFailure) {
    super(reason);
  }
}

/** The pattern and modifiers between PHP's delimiters, found as php_pcre.c finds them. */
function splitDelimiters(source: string): { body: string; modifiers: string } {
  let start = 0;
  while (start < source.length && " \t\n\r\v\f".includes(source[start]!)) start++;
  const open = source[start];
  if (open === undefined || /[A-Za-z0-9\\\0]/.test(open)) throw new Refusal("broken");
  const close = BRACKET_DELIMITERS[open] ?? open;
  let depth = 1;
  let at = start + 1;
  for (; at < source.length; at++) {
    const char = source[at]!;
    if (char === "\\" && at + 1 < source.length) at++;
    else if (char === close && --depth === 0) break;
    else if (char === open && close !== open) depth++;
  }
  if (at >= source.length) throw new Refusal("broken");
  return { body: source.slice(start + 1, at), modifiers: source.slice(at + 1) };
}

interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
  x: boolean;
  u: boolean;
  D: boolean;
  A: boolean;
}

function readModifiers(modifiers: string): Flags {
  const flags: Flags = { i: false, m: false, s: false, x: false, u: false, D: false, A: false };
  for (const modifier of modifiers) {
    // php_pcre.c skips these between modifiers.
    if (modifier === " " || modifier === "\n" || modifier === "\r") continue;
    if (UNTRANSLATED_MODIFIERS.has(modifier)) throw new Refusal("unsupported");
    if (!TRANSLATED_MODIFIERS.has(modifier)) throw new Refusal("broken");
    if (modifier in flags) flags[modifier as keyof Flags] = true;
  }
  return flags;
}

function hex(code: number): string {
  return code.toString(16).toUpperCase().padStart(2, "0");
}

function utf8Bytes(text: string): number[] {
  return [...new TextEncoder().encode(text)];
}

/** A value as PCRE sees it without /u: one character a byte of its UTF-8. */
function asBytes(value: string): string {
  let bytes = "";
  for (const byte of new TextEncoder().encode(value)) bytes += String.fromCharCode(byte);
  return bytes;
}

/** What a group holds, as far as the backtracking guard needs to know. */
interface Frame {
  /** The JavaScript source of each atom inside that repeats without bound (*, +, {n,}). */
  repeated: string[];
  /** ASCII characters the group matches exactly once, in its own branch (not inside a nested group). */
  literals: string[];
  alternation: boolean;
}

function newFrame(): Frame {
  return { repeated: [], literals: [], alternation: false };
}

/**
 * Whether a repeated group's passes are told apart by a character each pass must match once and none of
 * its repeated atoms can match ("(\.[0-9]+)*": a dot starts every pass). Without one, passes can split a
 * value many ways ("(a+)+"), and a failing match tries them all.
 */
function passesAreDelimited(frame: Frame, flags: string): boolean {
  return frame.literals.some((literal) =>
    frame.repeated.every((source) => {
      // A repeated group can match anything, as far as this check knows.
      if (source.startsWith("(")) return false;
      try {
        return !new RegExp(`^(?:${source})$`, flags).test(literal);
      } catch {
        return false;
      }
    }),
  );
}

/** Reads a PCRE pattern body into a JavaScript one, token by token. */
class Translator {
  private at = 0;
  private out = "";
  private readonly frames: Frame[] = [newFrame()];
  /** Where each open group starts in `out`. */
  private readonly groupStarts: number[] = [];
  /**
   * What the next quantifier would repeat, from where it starts in `out`: nothing (the start, "(", "|", an
   * anchor), an atom, a literal character (a candidate delimiter, below) or a group.
   */
  private last:
    | { kind: "none" }
    | { kind: "atom"; start: number }
    | { kind: "literal"; start: number }
    | { kind: "group"; start: number; frame: Frame } = { kind: "none" };
  highByte = false;
  unsafe = false;

  constructor(
    private readonly body: string,
    private readonly flags: Flags,
  ) {}

  translate(): string {
    while (this.at < this.body.length) this.token();
    if (this.frames.length !== 1) throw new Refusal("broken");
    return this.out;
  }

  private get frame(): Frame {
    return this.frames[this.frames.length - 1]!;
  }

  private peek(offset = 0): string | undefined {
    return this.body[this.at + offset];
  }

  private token(): void {
    const char = this.body[this.at]!;
    if (this.flags.x && " \t\n\v\f\r".includes(char)) {
      this.at++;
      return;
    }
    if (this.flags.x && char === "#") {
      const end = this.body.indexOf("\n", this.at);
      this.at = end === -1 ? this.body.length : end + 1;
      return;
    }
    switch (char) {
      case "\\":
        this.at++;
        this.escapeOutside();
        return;
      case "[": {
        this.at++;
        const start = this.out.length;
        this.characterClass();
        this.last = { kind: "atom", start };
        return;
      }
      case "(":
        this.at++;
        this.groupOpen();
        return;
      case ")":
        this.at++;
        this.groupClose();
        return;
      case "|":
        this.at++;
        this.frame.alternation = true;
        // A character of one branch is no delimiter of the group.
        this.frame.literals = [];
        this.out += "|";
        this.last = { kind: "none" };
        return;
      case "*":
      case "+":
      case "?":
        this.at++;
        this.quantifier(char, char !== "?");
        return;
      case "{": {
        const match = /^\{(\d*)(,(\d*))?\}/.exec(this.body.slice(this.at));
        if (match && match[1] !== "") {
          const [whole, min, comma, max] = match;
          if (Number(min) > 65535 || (max !== undefined && max !== "" && Number(max) > 65535))
            throw new Refusal("broken");
          this.at += whole.length;
          this.quantifier(whole, comma !== undefined && max === "");
          return;
        }
        // "{,n}" is a quantifier since PCRE2 10.43 and a literal before: it depends on the panel's PHP.
        if (match) throw new Refusal("unsupported");
        this.at++;
        this.literal("{".codePointAt(0)!);
        return;
      }
      case ".":
        this.at++;
        this.atom(this.flags.s ? "[\\s\\S]" : "[^\\n]");
        return;
      case "^":
        this.at++;
        // Multiline: also after an inner newline, never after one that ends the subject (PCRE).
        this.anchor(this.flags.m ? "(?:^|(?<=\\n)(?=[\\s\\S]))" : "^");
        return;
      case "$":
        this.at++;
        this.anchor(this.flags.m ? "(?=\\n|$)" : this.flags.D ? "$" : "(?=\\n?$)");
        return;
      default: {
        const codePoint = this.body.codePointAt(this.at)!;
        this.at += codePoint > 0xffff ? 2 : 1;
        this.literal(codePoint, true);
      }
    }
  }

  private anchor(text: string): void {
    this.out += text;
    this.last = { kind: "none" };
  }

  private atom(text: string): void {
    this.last = { kind: "atom", start: this.out.length };
    this.out += text;
  }

  /** A character matched as itself, written so that both engines read one atom for it. */
  private literal(codePoint: number, fromPatternText = false): void {
    const start = this.out.length;
    this.out += this.literalText(codePoint, fromPatternText, false);
    if (codePoint > 0x7f) {
      this.last = { kind: "atom", start };
      return;
    }
    this.frame.literals.push(String.fromCodePoint(codePoint));
    this.last = { kind: "literal", start };
  }

  private literalText(codePoint: number, fromPatternText: boolean, inClass: boolean): string {
    if (!this.flags.u) {
      if (codePoint > 0xff && !fromPatternText) throw new Refusal("broken");
      if (codePoint > 0x7f) {
        this.highByte = true;
        // A character typed in the pattern is its UTF-8 bytes for PCRE; an escape names one byte.
        const bytes = fromPatternText ? utf8Bytes(String.fromCodePoint(codePoint)) : [codePoint];
        return bytes.map((byte) => `\\x${hex(byte)}`).join("");
      }
    }
    const char = String.fromCodePoint(codePoint);
    if (SYNTAX_CHARACTERS.has(char) || (inClass && char === "-")) return `\\${char}`;
    if (codePoint < 0x20 || codePoint === 0x7f) return `\\x${hex(codePoint)}`;
    if (codePoint > 0x7e) return `\\u{${codePoint.toString(16).toUpperCase()}}`;
    return char;
  }

  private quantifier(text: string, unbounded: boolean): void {
    const last = this.last;
    if (last.kind === "none") {
      // PCRE refuses a quantifier with nothing to repeat at the start of a pattern or a branch.
      throw new Refusal(this.out === "" || /[(|]$/.test(this.out) ? "broken" : "unsupported");
    }
    if (this.peek() === "+") throw new Refusal("unsupported");
    let lazy = "";
    if (this.peek() === "?") {
      lazy = "?";
      this.at++;
    }
    // A repeated character is no longer matched exactly once.
    if (last.kind === "literal") this.frame.literals.pop();
    if (last.kind === "group" && unbounded) {
      const inner = last.frame;
      const jsFlags = `${this.flags.i ? "i" : ""}${this.flags.u ? "u" : ""}`;
      if (inner.alternation || (inner.repeated.length > 0 && !passesAreDelimited(inner, jsFlags)))
        this.unsafe = true;
    }
    this.out += text + lazy;
    if (unbounded) this.frame.repeated.push(this.out.slice(last.start));
    // "a**" is a PCRE error; "a{2}{3}" repeats a repetition: neither is worth carrying over.
    this.last = { kind: "none" };
  }

  private groupOpen(): void {
    const rest = this.body.slice(this.at);
    if (rest.startsWith("*")) throw new Refusal("unsupported");
    if (rest.startsWith("?#")) {
      const end = this.body.indexOf(")", this.at);
      if (end === -1) throw new Refusal("broken");
      this.at = end + 1;
      return;
    }
    let opening = "(";
    if (rest.startsWith("?")) {
      const named = /^\?(?:P?<([A-Za-z_]\w{0,31})>|'([A-Za-z_]\w{0,31})')/.exec(rest);
      const plain = /^\?(?::|=|!|<=|<!)/.exec(rest);
      if (named) {
        opening = `(?<${named[1] ?? named[2]}>`;
        this.at += named[0].length;
      } else if (plain) {
        opening = `(${plain[0]}`;
        this.at += plain[0].length;
      } else {
        // Inline flags, atomic groups, branch resets, conditionals, recursion, back references.
        throw new Refusal("unsupported");
      }
    }
    this.groupStarts.push(this.out.length);
    this.out += opening;
    this.frames.push(newFrame());
    this.last = { kind: "none" };
  }

  private groupClose(): void {
    if (this.frames.length === 1) throw new Refusal("broken");
    const frame = this.frames.pop()!;
    const start = this.groupStarts.pop()!;
    // What repeats inside a group repeats inside the groups around it, and so do its branches.
    this.frame.repeated.push(...frame.repeated);
    if (frame.alternation) this.frame.alternation = true;
    this.out += ")";
    this.last = { kind: "group", start, frame };
  }

  /** After a backslash, outside a class. */
  private escapeOutside(): void {
    const char = this.peek();
    if (char === undefined) throw new Refusal("broken");
    const assertions: Record<string, string> = {
      A: "(?<![\\s\\S])",
      z: "(?![\\s\\S])",
      Z: "(?=\\n?(?![\\s\\S]))",
    };
    const assertion = assertions[char];
    if (assertion !== undefined) {
      this.at++;
      this.anchor(assertion);
      return;
    }
    if (char === "b" || char === "B") {
      // JavaScript's word boundary is ASCII even with /u; PCRE's follows Unicode there.
      if (this.flags.u) throw new Refusal("unsupported");
      this.at++;
      this.anchor(`\\${char}`);
      return;
    }
    if (char === "Q") {
      this.at++;
      const end = this.body.indexOf("\\E", this.at);
      const quoted = this.body.slice(this.at, end === -1 ? undefined : end);
      this.at = end === -1 ? this.body.length : end + 2;
      for (const piece of quoted) this.literal(piece.codePointAt(0)!, true);
      return;
    }
    if (char === "E") {
      this.at++;
      return;
    }
    const shorthand = this.shorthand(char, false);
    if (shorthand !== null) {
      this.at++;
      this.atom(shorthand);
      return;
    }
    this.literal(this.escapedCodePoint(), !/[\x20-\x7e]/.test(char));
  }

  /** \d \w \s and their negations, outside (whole atoms) or inside a class (class members). */
  private shorthand(char: string, inClass: boolean): string | null {
    const wrap = (members: string, negated: boolean) => {
      if (inClass) {
        if (negated) throw new Refusal("unsupported");
        return members;
      }
      return `[${negated ? "^" : ""}${members}]`;
    };
    switch (char) {
      case "d":
      case "D":
        return this.flags.u ? (char === "d" ? "\\p{Nd}" : "\\P{Nd}") : `\\${char}`;
      case "w":
      case "W":
        return this.flags.u ? wrap("\\p{L}\\p{N}_", char === "W") : `\\${char}`;
      case "s":
      case "S":
        // With /u both engines read Unicode's spaces (nearly alike); without, PCRE's six only.
        return this.flags.u ? `\\${char}` : wrap(PCRE_SPACE, char === "S");
      case "p":
      case "P":
        return this.property(char === "P");
      case "h":
      case "H":
      case "v":
      case "V":
      case "R":
      case "X":
      case "K":
      case "G":
      case "C":
      case "N":
      case "g":
      case "k":
        throw new Refusal("unsupported");
      default:
        if (/[1-9]/.test(char)) throw new Refusal("unsupported"); // back references, octal in classes
        return null;
    }
  }

  /** \pL, \p{Lu}, \p{^L} (after the backslash and p); only general categories, only with /u. */
  private property(negated: boolean): string {
    if (!this.flags.u) throw new Refusal("unsupported");
    const match = /^.(?:\{(\^?)([A-Za-z]+)\}|([A-Za-z]))/.exec(this.body.slice(this.at));
    if (!match) throw new Refusal("unsupported");
    const name = match[2] ?? match[3]!;
    if (!GENERAL_CATEGORIES.has(name)) throw new Refusal("unsupported");
    // The caller steps over the "p"; the rest of the property is stepped over here.
    this.at += match[0].length - 1;
    return `\\${negated !== (match[1] === "^") ? "P" : "p"}{${name}}`;
  }

  /** The character an escape names (the backslash is behind, `at` on the escape's letter). */
  private escapedCodePoint(): number {
    const char = this.peek()!;
    this.at++;
    const simple: Record<string, number> = { a: 7, e: 0x1b, f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09 };
    if (simple[char] !== undefined) return simple[char];
    if (char === "x") {
      const braced = /^\{([0-9A-Fa-f]+)\}/.exec(this.body.slice(this.at));
      if (braced) {
        this.at += braced[0].length;
        const code = parseInt(braced[1]!, 16);
        if (code > 0x10ffff) throw new Refusal("broken");
        return code;
      }
      const digits = /^[0-9A-Fa-f]{0,2}/.exec(this.body.slice(this.at))![0];
      this.at += digits.length;
      return digits === "" ? 0 : parseInt(digits, 16);
    }
    if (char === "0") {
      const digits = /^[0-7]{0,2}/.exec(this.body.slice(this.at))![0];
      this.at += digits.length;
      return digits === "" ? 0 : parseInt(digits, 8);
    }
    if (char === "o") {
      const braced = /^\{([0-7]+)\}/.exec(this.body.slice(this.at));
      if (!braced) throw new Refusal("broken");
      this.at += braced[0].length;
      return parseInt(braced[1]!, 8);
    }
    if (char === "c") {
      const next = this.peek();
      if (next === undefined || !/[\x20-\x7e]/.test(next)) throw new Refusal("broken");
      this.at++;
      return next.toUpperCase().charCodeAt(0) ^ 0x40;
    }
    // Any other letter or digit is an escape PCRE gives a meaning to (or refuses): not a literal.
    if (/[A-Za-z0-9]/.test(char)) throw new Refusal("unsupported");
    // Any other character escaped is itself ("\/", "\.", "\#", an escaped delimiter).
    this.at--;
    const codePoint = this.body.codePointAt(this.at)!;
    this.at += codePoint > 0xffff ? 2 : 1;
    return codePoint;
  }

  /** A bracketed class, after its "[". */
  private characterClass(): void {
    let text = "[";
    if (this.peek() === "^") {
      text += "^";
      this.at++;
    }
    // A "]" first is a member in PCRE, an empty class in JavaScript.
    if (this.peek() === "]") {
      text += "\\]";
      this.at++;
    }
    // After a set (\d, [:alpha:]) a "-" is itself in PCRE; written bare, JavaScript could read a range.
    let afterSet = false;
    for (;;) {
      const char = this.peek();
      if (char === undefined) throw new Refusal("broken");
      if (char === "]") {
        this.at++;
        break;
      }
      if (char === "[") {
        const posix = /^\[:(\^?)([a-z]+):\]/.exec(this.body.slice(this.at));
        if (posix) {
          const members = POSIX_CLASSES[posix[2]!];
          // Negated or unknown classes, and every class with /u (Unicode there), are left to PCRE.
          if (posix[1] === "^" || members === undefined || this.flags.u)
            throw new Refusal("unsupported");
          text += members;
          this.at += posix[0].length;
          afterSet = true;
          continue;
        }
        if (/^\[[.=]/.test(this.body.slice(this.at))) throw new Refusal("unsupported");
        text += "\\[";
        this.at++;
        afterSet = false;
        continue;
      }
      if (char === "\\") {
        this.at++;
        const member = this.escapeInClass();
        text += member.text;
        afterSet = member.set;
        continue;
      }
      if (char === "-") {
        this.at++;
        const next = this.body.slice(this.at);
        // A range needs a character on both sides; anything else leaves the "-" a member.
        const member =
          afterSet ||
          text.endsWith("[") ||
          text.endsWith("[^") ||
          next.startsWith("]") ||
          /^\\[dDwWsSpPhHvV]|^\[:/.test(next);
        text += member ? "\\-" : "-";
        afterSet = false;
        continue;
      }
      const codePoint = this.body.codePointAt(this.at)!;
      this.at += codePoint > 0xffff ? 2 : 1;
      text += this.literalText(codePoint, true, true);
      afterSet = false;
    }
    this.out += text + "]";
  }

  /** After a backslash inside a class: a member (or a set of them), never an assertion. */
  private escapeInClass(): { text: string; set: boolean } {
    const char = this.peek();
    if (char === undefined) throw new Refusal("broken");
    if (char === "b") {
      this.at++;
      return { text: "\\x08", set: false };
    }
    if (char === "Q" || char === "E") {
      this.at++;
      if (char === "E") return { text: "", set: false };
      const end = this.body.indexOf("\\E", this.at);
      const quoted = this.body.slice(this.at, end === -1 ? undefined : end);
      this.at = end === -1 ? this.body.length : end + 2;
      const text = [...quoted]
        .map((piece) => this.literalText(piece.codePointAt(0)!, true, true))
        .join("");
      return { text, set: false };
    }
    if ("AzZB".includes(char)) throw new Refusal("broken");
    const shorthand = this.shorthand(char, true);
    if (shorthand !== null) {
      this.at++;
      return { text: shorthand, set: true };
    }
    const fromText = !/[\x20-\x7e]/.test(char);
    return { text: this.literalText(this.escapedCodePoint(), fromText, true), set: false };
  }
}

/**
 * A PHP preg pattern as a test of values, or why it cannot be one. `matches` answers as preg_match would
 * (a match anywhere, unless the pattern anchors itself).
 */
export function phpRegex(source: string): PhpRegex {
  try {
    const { body, modifiers } = splitDelimiters(source);
    const flags = readModifiers(modifiers);
    const translator = new Translator(body, flags);
    let translated = translator.translate();
    if (translator.unsafe) throw new Refusal("unsafe");
    // Without /u, JavaScript's case folding reaches beyond ASCII (é and É) where PCRE's does not.
    if (flags.i && !flags.u && translator.highByte) throw new Refusal("unsupported");
    if (flags.A) translated = `(?<![\\s\\S])(?:${translated})`;
    const jsFlags = `${flags.i ? "i" : ""}${flags.u ? "u" : ""}`;
    let regex: RegExp;
    try {
      regex = new RegExp(translated, jsFlags);
    } catch {
      // Something read here that JavaScript will not take: not a verdict on the pattern.
      return { ok: false, reason: "unsupported" };
    }
    const unicode = flags.u;
    return {
      ok: true,
      source: translated,
      flags: jsFlags,
      matches: (value) => regex.test(unicode ? value : asBytes(value)),
    };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, reason: error.reason };
    throw error;
  }
}
