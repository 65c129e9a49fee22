import { defineConfig } from 'drizzle-kit';

// Generates SQL migrations from src/db/schema.ts. The server applies them itself at start (src/db/migrate.ts).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './src/db/migrations',
});
