// A customer's billing details (docs/invoices.md): the name and address an invoice is made out
// to, and the country whose VAT rate applies. Every field may stay empty: the account's name is used,
// and without a country no VAT rate applies.

export type { BillingDetailsInput } from "./billing-details.schemas";

export const BILLING_NAME_MAX = 100;
export const BILLING_ADDRESS_MAX = 300;

/** ISO 3166-1 alpha-2, every assigned code: the billing country is one of them. */
export const COUNTRY_CODES = (
  "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT " +
  "BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH " +
  "ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT " +
  "HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS " +
  "LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI " +
  "NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG " +
  "SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG " +
  "UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW"
).split(" ");

export function isCountryCode(value: string): boolean {
  return COUNTRY_CODES.includes(value);
}

/** What the account tab's card shows and a new document copies: empty strings for what is not set. */
export interface BillingDetails {
  name: string;
  address: string;
  country: string;
}

const regionNames = new Map<string, Intl.DisplayNames>();

/** A country's name in the reader's language ("Maroc", "المغرب"), the code itself when unknown. */
export function countryName(code: string, locale: string): string {
  let names = regionNames.get(locale);
  if (!names) {
    names = new Intl.DisplayNames([locale], { type: "region", fallback: "code" });
    regionNames.set(locale, names);
  }
  return names.of(code) ?? code;
}

// Worked out once per language: the dashboard's account tab carries the billing details form, and
// looking up and sorting some 250 names on every render was about 6% of that page's CPU on the server.
const choicesByLocale = new Map<string, readonly CountryChoice[]>();

export interface CountryChoice {
  readonly value: string;
  readonly label: string;
}

/** The countries as a select's choices, sorted by their name in the reader's language. */
export function countryChoices(locale: string): readonly CountryChoice[] {
  let choices = choicesByLocale.get(locale);
  if (!choices) {
    const collator = new Intl.Collator(locale);
    choices = COUNTRY_CODES.map((code) => ({ value: code, label: countryName(code, locale) })).sort(
      (a, b) => collator.compare(a.label, b.label),
    );
    choicesByLocale.set(locale, choices);
  }
  return choices;
}
