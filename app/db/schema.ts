import type { ColumnType, Generated } from "kysely";

/**
 * Every timestamp is read back as an ISO-8601 string on both dialects: SQLite stores the text, and our
 * PostgreSQL pool parses timestamptz into the same form (see database.server.ts). Writes take a string.
 */
export type Timestamp = ColumnType<string, string, string>;
/** SQLite has no boolean type: our own flags are 0 or 1 on both dialects so code reads them one way. */
export type Flag = ColumnType<number, number | undefined, number>;

export interface UsersTable {
  id: string;
  name: string;
  email: string;
  // better-auth's own columns: SQLite hands back 0/1, PostgreSQL true/false.
  email_verified: ColumnType<boolean | number, boolean | number | undefined, boolean | number>;
  image: string | null;
  role: ColumnType<string, string | undefined, string>;
  banned: ColumnType<
    boolean | number | null,
    boolean | number | null | undefined,
    boolean | number
  >;
  ban_reason: string | null;
  ban_expires: Timestamp | null;
  status: ColumnType<string, string | undefined, string>;
  coin_balance_cents: ColumnType<number, number | undefined, number>;
  must_change_password: Flag;
  locale: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  token: string;
  expires_at: Timestamp;
  ip_address: string | null;
  user_agent: string | null;
  impersonated_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AccountsTable {
  id: string;
  user_id: string;
  account_id: string;
  provider_id: string;
  access_token: string | null;
  refresh_token: string | null;
  id_token: string | null;
  access_token_expires_at: Timestamp | null;
  refresh_token_expires_at: Timestamp | null;
  scope: string | null;
  password: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface VerificationsTable {
  id: string;
  identifier: string;
  value: string;
  expires_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SettingsTable {
  key: string;
  /** JSON text, validated by the settings schema when read. */
  value: string;
  updated_at: Timestamp;
}

export interface LoginAttemptsTable {
  id: Generated<number>;
  email: string;
  ip_address: string;
  succeeded: Flag;
  created_at: Timestamp;
}

export interface ProductsTable {
  id: Generated<number>;
  slug: string;
  type: string;
  category: string;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  price_cents: number;
  /** JSON array of strings. */
  features: ColumnType<string, string | undefined, string>;
  ram_gb: number | null;
  storage_gb: number | null;
  cpu_cores: number | null;
  slots: number | null;
  recommended: Flag;
  status: ColumnType<string, string | undefined, string>;
  position: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  accounts: AccountsTable;
  verifications: VerificationsTable;
  settings: SettingsTable;
  login_attempts: LoginAttemptsTable;
  products: ProductsTable;
}
