/**
 * Every Cosmos DB text that rests on the service's own expiry behaviour carries the "to verify on a
 * real account" qualifier until a live run confirmed it. The suite's protocol server never expires
 * anything, so such claims (items gone from queries at once, background deletion and its cost, an
 * item ttl ignored while TTL is off, 0 and null refused, re-judging on a DefaultTimeToLive change)
 * cannot be checked here; what the server can show is checked claim by claim in
 * explain-claims.server.test.ts.
 */
import { model } from '../../examples/models';
import type { ExplainEntry } from '../../src';
import { cosmosExplainer } from '../../src/providers/cosmos';
import type { ContainerSpec } from '../../src/providers/cosmos/compile';
import { compileCosmos } from '../../src/providers/cosmos/compile';
import type { LiveContainer } from '../../src/providers/cosmos/inspect';
import { planSteps } from '../../src/providers/cosmos/plan';
import { RETROACTIVITY_VERIFIED, SERVICE_EXPIRY_VERIFIED, UNVERIFIED_NOTE } from '../../src/providers/cosmos/semantics';

/** Phrases that state what the service does with expiry, which the protocol server cannot show. */
const SERVICE_CLAIMS: readonly RegExp[] = [
  /disappear from queries/,
  /physically deleted/,
  /request units left over/,
  /rejects 0 and null/,
  /stops all expiry|stop applying/,
  /would be ignored/,
  /re-judge|judges every stored item|expires? at once/,
];

/** Every user-facing sentence of an entry: text, limits, warnings, deletion, change effect, per-write rows. */
function textsOf(entry: ExplainEntry): string[] {
  return [
    entry.text,
    ...entry.limits,
    ...entry.warnings,
    entry.deletion.by,
    entry.deletion.lag,
    entry.changeEffect.text,
    entry.materializedBy.text,
    ...entry.perWrite.map((row) => row.how),
  ];
}

/** The sentences (split at '. ' and '; ') that make a service claim and lack the qualifier. */
function unqualified(texts: readonly string[]): string[] {
  return texts.flatMap((text) => {
    if (!SERVICE_CLAIMS.some((claim) => claim.test(text))) return [];
    return text.includes(UNVERIFIED_NOTE) ? [] : [text];
  });
}

const live = (spec: ContainerSpec, defaultTtl: number | null): LiveContainer => ({
  id: spec.id,
  exists: true,
  partitionKeyPaths: [spec.partitionKeyPath],
  defaultTtl,
  etag: undefined,
  definition: { id: spec.id },
});

describe('Cosmos texts that rest on unverified service behaviour carry the qualifier', () => {
  test('nothing is marked verified that no live run confirmed', () => {
    expect(SERVICE_EXPIRY_VERIFIED).toBe(false);
    expect(RETROACTIVITY_VERIFIED).toBe(false);
    expect(UNVERIFIED_NOTE).toBe('per the Azure Cosmos DB documentation');
  });

  test('every explain entry of the example model (TTL n, -1 and off; with and without hideExpired)', () => {
    const entries = [...cosmosExplainer.explain(model), ...cosmosExplainer.explain(model, { hideExpired: true })];
    const texts = entries.flatMap(textsOf);
    // The markers do find the claims: each kind of container state contributes some.
    expect(texts.filter((t) => SERVICE_CLAIMS.some((claim) => claim.test(t))).length).toBeGreaterThan(10);
    expect(unqualified(texts)).toEqual([]);
  });

  test('every plan step that changes DefaultTimeToLive (on, off, shorter, longer, to -1)', () => {
    const specs = compileCosmos(model).containers;
    const sessions = specs.find((s) => s.id === 'sessions') as ContainerSpec;
    const texts: string[] = [];
    for (const from of [null, -1, 60, 7200]) {
      for (const to of [null, -1, 60, 7200]) {
        if (from === to) continue;
        const steps = planSteps([{ ...sessions, defaultTtl: to }], [live(sessions, from)]);
        // The one-line summary is always rendered with its effect, which carries the qualifier.
        for (const step of steps) texts.push(step.effect?.text ?? '');
      }
    }
    expect(texts.filter((t) => t !== '').length).toBeGreaterThan(10);
    expect(unqualified(texts.filter((t) => t !== ''))).toEqual([]);
  });
});
