import { defineConfig } from 'drizzle-kit';

export default defineConfig({ dialect: 'sqlite', schema: './src/state/inbox-schema.ts', out: './sql/inbox' });
