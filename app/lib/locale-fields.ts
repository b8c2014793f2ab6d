/** The form field of one language's text: the text's name, then the language's code ("nameFr"). */
export type LocaleFieldName<
  Field extends string,
  Locale extends string,
> = `${Field}${Capitalize<Locale>}`;

/**
 * Each language's form field of one text, as data rather than written out a language at a time:
 * `localeFieldNames("name", ["en", "fr"])` is `{ en: "nameEn", fr: "nameFr" }`.
 */
export function localeFieldNames<const Field extends string, const Locale extends string>(
  field: Field,
  locales: readonly Locale[],
): { readonly [L in Locale]: LocaleFieldName<Field, L> } {
  return Object.fromEntries(
    locales.map((locale) => [
      locale,
      `${field}${locale.charAt(0).toUpperCase()}${locale.slice(1)}`,
    ]),
  ) as { readonly [L in Locale]: LocaleFieldName<Field, L> };
}
