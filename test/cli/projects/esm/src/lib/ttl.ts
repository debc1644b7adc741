// Reached through the tsconfig `paths` alias @lib/*.
export const SESSION_TTL = process.env.FIXTURE_TTL ?? '1h';
export const loadedFrom = import.meta.url;
