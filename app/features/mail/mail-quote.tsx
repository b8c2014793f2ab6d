import { Fragment } from "react";
import type { MailContent, MailContext } from "./mail-templates";

/**
 * Someone's words in a message: a bar on the side the text starts from, each typed line on a line of
 * its own. React escapes the text, so whatever was typed (markup too) shows as it was written.
 */
export function MailQuote({
  quote,
  context,
}: {
  quote: NonNullable<MailContent["quote"]>;
  context: MailContext;
}) {
  const side = context.locale === "ar" ? "Right" : "Left";
  const lines = quote.text.split("\n");
  return (
    <>
      {quote.intro ? <p style={{ margin: "0 0 8px", lineHeight: 1.5 }}>{quote.intro}</p> : null}
      {/* Its own direction: a customer writes Latin in an Arabic message, or Arabic in an English one. */}
      <div
        dir="auto"
        style={{
          margin: "0 0 12px",
          padding: "8px 12px",
          [`border${side}`]: "3px solid #d4d4d8",
          background: "#fafafa",
          color: "#27272a",
          lineHeight: 1.5,
          overflowWrap: "anywhere",
          // From where its own text starts, not the message's side.
          textAlign: "start",
        }}
      >
        {lines.map((line, index) => (
          <Fragment key={index}>
            {index > 0 ? <br /> : null}
            {line}
          </Fragment>
        ))}
      </div>
      {quote.after.map((paragraph, index) => (
        <p key={index} style={{ margin: "0 0 12px", lineHeight: 1.5 }}>
          {paragraph}
        </p>
      ))}
    </>
  );
}
