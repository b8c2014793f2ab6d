import { useTranslation } from "~/i18n/use-translation";

/** Translates an error key from the accounts domain ("errors.emailTaken") into the user's language. */
export function useAuthError() {
  const { t } = useTranslation("auth");
  return (key: string | undefined, options?: { count?: number }) =>
    key ? (t as (k: string, o?: object) => string)(key, options) : undefined;
}
