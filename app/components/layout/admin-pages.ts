// Kept free of imports: app/routes.ts reads it when the route table is built.
/** Pages that are not built yet answer 'coming soon' inside the shell. */
export const COMING_SOON_PATHS = [
  "client-groups",
  "quotes",
  "domains",
  "domain-pricing",
  "downloads",
  "chat",
  "analytics",
  "utilities",
] as const;
