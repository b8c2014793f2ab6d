import { bidiParts } from "~/lib/bidi";

/**
 * Text of mixed direction with each Latin unit that holds a digit (a size, an address, a code, an amount)
 * in a left-to-right `<bdi>`, so an Arabic line keeps "5 GB" and "192.168.1.10:7777" in order
 * (app/lib/bidi.ts says which runs). Plain text: React escapes it as usual.
 */
export function BidiText({ text }: { text: string }) {
  return (
    <>
      {bidiParts(text).map((part, index) =>
        part.isolate ? (
          <bdi key={index} dir="ltr">
            {part.text}
          </bdi>
        ) : (
          part.text
        ),
      )}
    </>
  );
}
