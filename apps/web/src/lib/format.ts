// The Italian formatting helpers live in packages/shared (the server's PDF export uses them too).
export * from '@bo/shared/format';
